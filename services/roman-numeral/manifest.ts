import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'roman-numeral',
  name: 'Roman numerals',
  description:
    'Converts an integer from 1 to 3999 to standard Roman numerals (subtractive notation: IV, IX, XL, XC, CD, CM), or a Roman numeral back to its integer with strict validation: only the canonical form is accepted (IIII, VX, IC, IIV, MMMM and lower-case letters are rejected). Give exactly one of `value` or `numeral` ("and back": send the numeral as `numeral`, or as a string in `value`); anything else is a 422 that says why.',
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      value: t.Optional(
        t.Union([t.Number(), t.String({ maxLength: 32 })], {
          description:
            'An integer from 1 to 3999 to convert to a numeral; a Roman numeral string here is converted back (same as `numeral`).',
        }),
      ),
      numeral: t.Optional(
        t.String({ maxLength: 32, description: 'A canonical upper-case Roman numeral to convert to an integer.' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { roman: 'numeral', number: 'value', integer: 'value' } },
  output: t.Object({ value: t.Integer({ minimum: 1, maximum: 3999 }), numeral: t.String() }),
  examples: [{ name: '2026', input: { value: 2026 }, output: { value: 2026, numeral: 'MMXXVI' } }],
})
