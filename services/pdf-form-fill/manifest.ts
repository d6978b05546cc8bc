import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'pdf-form-fill',
  name: 'Pdf Form Fill',
  description: "Fills AcroForm text fields; returns base64 PDF and the list of fields set.",
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'none',
  input: t.Object({
    pdf_b64: t.Optional(t.String()),
    fields: t.Optional(t.Record(t.String(), t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
