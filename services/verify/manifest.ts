import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'verify',
  name: 'Verify an x402 payment',
  description:
    "Checks an x402 payment payload against payment requirements, with the x402 facilitator /verify contract: body {x402Version, paymentPayload, paymentRequirements}, answer {isValid, invalidReason, payer}. Runs the same local checks (echo, recipient, exact amount, time window, EIP-712 signature) and the same on-chain simulation as this server's own gate, on eip155:8453 only. Nothing is reserved or settled; an invalid payment is a 200 with isValid false.",
  category: 'payments',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  needs: ['payments'],
  input: t.Object(
    {
      x402Version: t.Union([t.Literal(1), t.Literal(2)], { description: 'Protocol version of the payload.' }),
      paymentPayload: t.Record(t.String(), t.Unknown(), {
        description: 'The decoded PaymentPayload (what PAYMENT-SIGNATURE carries, as JSON).',
      }),
      paymentRequirements: t.Object(
        {
          scheme: t.Literal('exact'),
          network: t.String({ maxLength: 64, description: 'CAIP-2 network; eip155:8453.' }),
          amount: t.String({ maxLength: 78, description: 'Atomic units (USDC has 6 decimals).' }),
          asset: t.String({ maxLength: 42 }),
          payTo: t.String({ maxLength: 42 }),
          maxTimeoutSeconds: t.Optional(t.Integer({ minimum: 1, maximum: 86_400 })),
          extra: t.Object(
            { name: t.String({ maxLength: 64 }), version: t.String({ maxLength: 16 }) },
            { additionalProperties: true },
          ),
        },
        { additionalProperties: true, description: 'The requirements to check against (v2 shape).' },
      ),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    isValid: t.Boolean(),
    invalidReason: t.Optional(t.String({ description: 'x402 reason string, e.g. invalid_exact_evm_signature.' })),
    payer: t.Optional(t.String({ description: 'The payer address from the authorization.' })),
  }),
  examples: [
    {
      name: 'A payment with an expired authorization',
      input: {
        x402Version: 2,
        paymentPayload: { x402Version: 2, accepted: {}, payload: {} },
        paymentRequirements: {
          scheme: 'exact',
          network: 'eip155:8453',
          amount: '1000',
          asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
          maxTimeoutSeconds: 60,
          extra: { name: 'USD Coin', version: '2' },
        },
      },
      output: {
        isValid: false,
        invalidReason: 'invalid_exact_evm_payload_authorization_valid_before',
        payer: '0x5fca0b8c25181a95b9d47AD0450c608BB8170AD6',
      },
    },
  ],
})
