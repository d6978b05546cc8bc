import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'iban-bic-validate',
  name: 'Iban Bic Validate',
  description: "Mod-97 IBAN, BIC structure.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    iban: t.Optional(t.String()),
    bic: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
