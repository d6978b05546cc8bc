import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'wcag-contrast',
  name: 'Wcag Contrast',
  description: "WCAG 2.1 ratio, AA/AAA for normal and large text.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    fg: t.Optional(t.String()),
    bg: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
