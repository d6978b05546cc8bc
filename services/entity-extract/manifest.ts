import { defineService, flat, t } from '../../runtime/sdk'

const Ent = t.Object({
  value: t.String(),
  start: t.Integer({ description: 'UTF-16 offset of the first character.' }),
  end: t.Integer({ description: 'UTF-16 offset after the last character.' }),
})
const KINDS = ['emails', 'urls', 'ipv4', 'phones', 'hashtags', 'mentions', 'money', 'dates'] as const

export default defineService({
  slug: 'entity-extract',
  name: 'Entity extraction',
  description:
    'Finds emails, http(s) URLs (a final ")" is kept when it closes a "(" in the URL), IPv4 addresses (0-255 quads, not inside longer dotted numbers such as versions), phone numbers (international +CC forms and North-American (555) 123-4567, 555-123-4567, 555.123.4567, 1-800-555-0199), #hashtags (with at least one letter), @mentions (not inside an email), money amounts ($12.50, € 5, £3.5m, USD 40, 1,200 EUR, 30 dollars) and dates (ISO-8601 with optional time, 12/31/2024, Jan 5, 2024, January 5th, 2024, 5 January 2024), each with its value and UTF-16 span [start, end). IPs, phones, hashtags, mentions and dates inside a URL are not reported separately. Pattern-based, linear-time and deterministic; no model.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    { text: t.String({ maxLength: 500_000, description: 'Text to scan.' }) },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text' } },
  output: t.Object({
    ...Object.fromEntries(KINDS.map((k) => [k, t.Array(Ent)])),
    counts: t.Record(t.String(), t.Integer()),
  } as unknown as Record<string, never>),
  examples: [
    {
      name: 'Tweet',
      input: { text: 'Ping @ana about #launch on 2024-05-01: $1,200 budget, see https://example.com' },
      output: {
        emails: [],
        urls: [{ value: 'https://example.com', start: 58, end: 77 }],
        ipv4: [],
        phones: [],
        hashtags: [{ value: '#launch', start: 16, end: 23 }],
        mentions: [{ value: '@ana', start: 5, end: 9 }],
        money: [{ value: '$1,200', start: 39, end: 45 }],
        dates: [{ value: '2024-05-01', start: 27, end: 37 }],
        counts: { emails: 0, urls: 1, ipv4: 0, phones: 0, hashtags: 1, mentions: 1, money: 1, dates: 1 },
      },
    },
  ],
})
