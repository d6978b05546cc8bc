import { defineService, flat, t } from '../../runtime/sdk'

const Time = (d: string) =>
  t.Object(
    {
      seconds: t.Number({ minimum: 0, description: 'Estimated seconds to guess.' }),
      display: t.String({ description: 'Human-readable, e.g. "3 hours", "centuries".' }),
    },
    { description: d },
  )

export default defineService({
  slug: 'password-strength',
  name: 'Password strength',
  description:
    'Estimates how guessable a password is with zxcvbn-ts 4 (common + English dictionaries, l33t substitutions, keyboard walks, repeats, sequences, dates): score 0-4, estimated guesses, entropy_bits = log2(guesses), ' +
    'crack-time estimates for four attackers (online throttled 100 guesses/hour, online unthrottled 10/s, offline slow hash 10^4/s, offline fast hash 10^10/s), the pattern kinds found, and feedback. ' +
    'zxcvbn looks at the first 100 characters (longer passwords are rated on those; already strong). Also the naive character-class entropy = length × log2(pool), pool = 26 lower + 26 upper + 10 digits + 33 ASCII symbols and space + 100 for any other character, present classes only — an upper bound that ignores patterns. ' +
    'Length counts Unicode code points. The password is never echoed, logged or stored. 1-256 characters.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      password: t.String({
        minLength: 1,
        maxLength: 256,
        description: 'The password to rate (1-256 characters). Not stored or echoed.',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { pass: 'password', pwd: 'password' } },
  output: t.Object({
    score: t.Integer({
      minimum: 0,
      maximum: 4,
      description:
        '0 too guessable (< 10^3 guesses), 1 very guessable (< 10^6), 2 somewhat guessable (< 10^8), 3 safely unguessable (< 10^10), 4 very unguessable.',
    }),
    guesses: t.Number({ minimum: 1, description: 'Estimated guesses needed (zxcvbn).' }),
    entropy_bits: t.Number({ minimum: 0, description: 'log2(guesses), 2 decimals.' }),
    charset_entropy_bits: t.Number({
      minimum: 0,
      description: 'length × log2(charset_pool), 2 decimals: naive upper bound.',
    }),
    charset_pool: t.Integer({ minimum: 0, description: 'Size of the character pool from the classes present.' }),
    length: t.Integer({ minimum: 1, description: 'Length in Unicode code points.' }),
    analysed_length: t.Integer({
      minimum: 1,
      maximum: 100,
      description: 'Code points zxcvbn analysed (the first 100 UTF-16 units).',
    }),
    classes: t.Object({
      lower: t.Boolean({ description: 'Has a-z.' }),
      upper: t.Boolean({ description: 'Has A-Z.' }),
      digits: t.Boolean({ description: 'Has 0-9.' }),
      symbols: t.Boolean({ description: 'Has ASCII punctuation or space.' }),
      other: t.Boolean({ description: 'Has a non-ASCII or control character.' }),
    }),
    patterns: t.Array(t.String(), {
      description:
        'Pattern kinds zxcvbn matched: dictionary, l33t, spatial, repeat, sequence, regex, date, separator, bruteforce.',
    }),
    crack_times: t.Object({
      online_throttled: Time('Online attack, throttled to 100 guesses per hour.'),
      online_unthrottled: Time('Online attack, 10 guesses per second.'),
      offline_slow_hash: Time('Offline attack on a slow hash (bcrypt, scrypt, Argon2): 10^4 guesses per second.'),
      offline_fast_hash: Time('Offline attack on a fast hash (MD5, SHA-1) with many GPUs: 10^10 guesses per second.'),
    }),
    feedback: t.Object({
      warning: t.Union([t.String(), t.Null()], { description: 'Main weakness, or null.' }),
      suggestions: t.Array(t.String(), { description: 'How to improve it.' }),
    }),
  }),
  examples: [
    {
      name: 'Common password',
      input: { password: 'password' },
      output: {
        score: 0,
        guesses: 3,
        entropy_bits: 1.58,
        charset_entropy_bits: 37.6,
        charset_pool: 26,
        length: 8,
        analysed_length: 8,
        classes: { lower: true, upper: false, digits: false, symbols: false, other: false },
        patterns: ['dictionary'],
        crack_times: {
          online_throttled: { seconds: 108, display: '2 minutes' },
          online_unthrottled: { seconds: 0.3, display: 'less than a second' },
          offline_slow_hash: { seconds: 0.0003, display: 'less than a second' },
          offline_fast_hash: { seconds: 3e-10, display: 'less than a second' },
        },
        feedback: {
          warning: 'This is a heavily used password.',
          suggestions: ['Add more words that are less common.'],
        },
      },
    },
  ],
})
