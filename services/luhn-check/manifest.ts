import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'luhn-check',
  name: 'Luhn check and card brand',
  description: 'Validates a number with the Luhn (mod 10) checksum and names the payment card brand from its prefix and length (Braintree credit-card-type tables: Visa, Mastercard, American Express, Diners Club, Discover, JCB, UnionPay, Maestro, Mir, Elo, Hiper, Hipercard). Spaces and hyphens are ignored; any other character is a 422. Never stores the number; the answer shows only the last 4 digits.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({ number: t.String({ minLength: 1, maxLength: 64, description: 'Digits, optionally grouped by spaces or hyphens.' }) }, { additionalProperties: true }),
  output: t.Object({
    valid: t.Boolean({ description: 'Luhn checksum passes.' }),
    length: t.Integer(),
    last4: t.String(),
    check_digit: t.Integer({ description: 'The last digit.' }),
    expected_check_digit: t.Integer({ description: 'The digit that would make the number valid.' }),
    brand: t.Union([t.String(), t.Null()], { description: 'Most specific matching brand, or null.' }),
    brand_length_ok: t.Union([t.Boolean(), t.Null()], { description: 'The length is one the brand issues.' }),
    possible_brands: t.Array(t.String()),
  }),
  examples: [{ name: 'Visa test card', input: { number: '4111 1111 1111 1111' }, output: { valid: true, length: 16, last4: '1111', check_digit: 1, expected_check_digit: 1, brand: 'Visa', brand_length_ok: true, possible_brands: ['Visa'] } }],
})
