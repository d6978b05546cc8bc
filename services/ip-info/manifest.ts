import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ip-info',
  name: 'Ip Info',
  description: "IPv4/IPv6 version, private/loopback/global, reverse pointer.",
  category: 'network',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    ip: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
