import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ip-cidr-calc',
  name: 'Ip Cidr Calc',
  description: "IPv4/IPv6 subnet math.",
  category: 'network',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    cidr: t.Optional(t.String()),
    contains: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
