import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'luhn-check',
  name: 'Luhn check and card brand',
  description:
    'Validates a number with the Luhn (mod 10) checksum, gives the check digit that would make it valid, and names the payment card brand from its prefix (Braintree credit-card-type 10.3 tables, longest matching prefix wins: ' +
    'Visa, Mastercard, American Express, Diners Club, Discover, JCB, UnionPay, Maestro, Mir, Elo, Hiper, Hipercard, Troy, Verve, Naranja). When the digits match several brands and none decides (too few digits), brand is null and possible_brands lists the candidates. ' +
    'Spaces and hyphens are ignored; any other character is a 422. 2-64 digits. The number is never stored or echoed: the answer shows only the last 4 digits.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      number: t.String({
        minLength: 1,
        maxLength: 64,
        description: 'Digits, optionally grouped by spaces or hyphens (e.g. "4111 1111 1111 1111"); at least 2 digits.',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { card: 'number', card_number: 'number', pan: 'number' } },
  output: t.Object({
    valid: t.Boolean({ description: 'The Luhn checksum passes.' }),
    length: t.Integer({ description: 'Number of digits.' }),
    last4: t.String({ description: 'Last 4 digits (fewer when the number is shorter).' }),
    check_digit: t.Integer({ minimum: 0, maximum: 9, description: 'The last digit as sent.' }),
    expected_check_digit: t.Integer({
      minimum: 0,
      maximum: 9,
      description: 'The last digit that would make the number Luhn-valid.',
    }),
    brand: t.Union([t.String(), t.Null()], {
      description:
        'Card brand decided by the longest matching prefix (e.g. "Visa"), or null when none or several match.',
    }),
    brand_code: t.Union([t.String(), t.Null()], {
      description: 'Machine id of the brand (visa, mastercard, american-express, ...), or null.',
    }),
    brand_length_ok: t.Union([t.Boolean(), t.Null()], {
      description: 'The digit count is one the brand issues (e.g. 15 for American Express); null without a brand.',
    }),
    security_code: t.Union(
      [
        t.Object({
          name: t.String({ description: "The brand's name for it: CVV, CVC, CID, ..." }),
          size: t.Integer({ description: 'Digits.' }),
        }),
        t.Null(),
      ],
      { description: "The brand's card security code, or null." },
    ),
    possible_brands: t.Array(t.String(), { description: 'Every brand the prefix is compatible with.' }),
  }),
  examples: [
    {
      name: 'Visa test card',
      input: { number: '4111 1111 1111 1111' },
      output: {
        valid: true,
        length: 16,
        last4: '1111',
        check_digit: 1,
        expected_check_digit: 1,
        brand: 'Visa',
        brand_code: 'visa',
        brand_length_ok: true,
        security_code: { name: 'CVV', size: 3 },
        possible_brands: ['Visa'],
      },
    },
    {
      name: 'Wikipedia Luhn example',
      input: { number: '79927398713' },
      output: {
        valid: true,
        length: 11,
        last4: '8713',
        check_digit: 3,
        expected_check_digit: 3,
        brand: null,
        brand_code: null,
        brand_length_ok: null,
        security_code: null,
        possible_brands: [],
      },
    },
  ],
})
