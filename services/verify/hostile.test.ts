/**
 * The payments family: a payment payload of many fields (20,000 is 0.5 MB, half the body cap) is validated in linear time and reaches the verifier (not
 * configured in this direct call, hence the 503; the paid route's own tests cover the verifier).
 */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth(
  'verify',
  'a payment payload of many fields',
  (n) => ({
    x402Version: 2,
    paymentPayload: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, { a: [i, 'x'] }])),
    paymentRequirements: {
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '1000',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      payTo: '0x0000000000000000000000000000000000000001',
      maxTimeoutSeconds: 60,
      extra: { name: 'USD Coin', version: '2' },
    },
  }),
  10_000,
  { outcomes: ['503 NOT_CONFIGURED', '422 INVALID_INPUT'] },
)
