import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'url-parse',
  name: 'Url Parse',
  description: "Scheme, host, port, path, query params, fragment.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    url: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
