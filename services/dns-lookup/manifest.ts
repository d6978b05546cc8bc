import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'dns-lookup',
  name: 'Dns Lookup',
  description: "A, AAAA, MX, TXT, NS, CNAME over DNS-over-HTTPS.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    name: t.Optional(t.String()),
    type: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
