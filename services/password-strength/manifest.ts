import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'password-strength',
  name: 'Password strength',
  description: 'Estimates password strength with zxcvbn-ts (common + English dictionaries, keyboard patterns, dates, repeats): score 0-4, estimated guesses, entropy in bits = log2(guesses), crack-time estimates for four attack models, and feedback. Also reports the naive character-class entropy (length × log2 of the pool of lower 26, upper 26, digits 10, symbols 33, other 100) and which classes are present. The password is never echoed or stored. At most 256 characters.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({ password: t.String({ minLength: 1, maxLength: 256, description: 'The password to rate.' }) }, { additionalProperties: true }),
  output: t.Object({
    score: t.Integer({ minimum: 0, maximum: 4, description: '0 too guessable ... 4 very unguessable.' }),
    guesses: t.Number(), entropy_bits: t.Number({ description: 'log2(guesses).' }),
    charset_entropy_bits: t.Number({ description: 'length × log2(pool size).' }),
    length: t.Integer(), classes: t.Object({ lower: t.Boolean(), upper: t.Boolean(), digits: t.Boolean(), symbols: t.Boolean(), other: t.Boolean() }),
    crack_times: t.Record(t.String(), t.Object({ seconds: t.Number(), display: t.String() })),
    feedback: t.Object({ warning: t.Union([t.String(), t.Null()]), suggestions: t.Array(t.String()) }),
  }),
  examples: [{ name: 'Common password', input: { password: 'password' } }],
})
