import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'verify',
  name: 'Verify',
  description: "Checks an x402 payment payload against payment requirements (facilitator /verify contract).",
  category: 'payments',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    x402Version: t.Optional(t.Number()),
    paymentPayload: t.Optional(t.Record(t.String(), t.Unknown())),
    paymentRequirements: t.Optional(t.Record(t.String(), t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
