import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'number-to-words',
  name: 'Number to words',
  description: 'Writes a number in English words (short scale: thousand, million, billion, trillion). Forms: cardinal ("one hundred twenty-three"; negatives with "minus"; decimals read digit by digit after "point"), ordinal ("one hundred twenty-third"; non-negative integers only) and currency (US dollars and cents, rounded half-up to the cent: "one dollar and five cents"). American style without "and" inside numbers. |number| below 10^15.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      number: t.Number({ minimum: -999_999_999_999_999, maximum: 999_999_999_999_999, description: 'The number.' }),
      form: t.Optional(t.Union([t.Literal('cardinal'), t.Literal('ordinal'), t.Literal('currency')], { default: 'cardinal', description: 'cardinal, ordinal or currency (USD).' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({ number: t.Number(), form: t.String(), words: t.String() }),
  examples: [{ name: 'Ordinal', input: { number: 121, form: 'ordinal' }, output: { number: 121, form: 'ordinal', words: 'one hundred twenty-first' } }],
})
