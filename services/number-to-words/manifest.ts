import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'number-to-words',
  name: 'Number to words',
  description:
    'Writes a number in English words, American style (short scale: thousand, million, billion, trillion, quadrillion; no "and" inside numbers; compounds 21-99 hyphenated). Forms: cardinal ("one hundred twenty-three"; negatives with "minus"; decimals read digit by digit after "point", using the shortest decimal form of the JSON number, so 1e-7 is "zero point zero zero zero zero zero zero one"), ordinal ("one hundred twenty-third"; non-negative integers only) and currency (US dollars and cents, rounded half-up to the cent on the decimal digits as written, so 2.675 is "two dollars and sixty-eight cents"; negatives with "minus"). |number| up to 10^15 inclusive.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      number: t.Number({ minimum: -1e15, maximum: 1e15, description: 'The number, |number| <= 10^15.' }),
      form: t.Optional(
        t.Union([t.Literal('cardinal'), t.Literal('ordinal'), t.Literal('currency')], {
          default: 'cardinal',
          description: 'cardinal, ordinal or currency (USD).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { value: 'number', n: 'number', amount: 'number', style: 'form' } },
  output: t.Object({ number: t.Number(), form: t.String(), words: t.String() }),
  examples: [
    {
      name: 'Ordinal',
      input: { number: 121, form: 'ordinal' },
      output: { number: 121, form: 'ordinal', words: 'one hundred twenty-first' },
    },
  ],
})
