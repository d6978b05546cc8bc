import { defineService, flat, t } from '../../runtime/sdk'

const Ent = t.Object({ value: t.String(), start: t.Integer({ description: 'UTF-16 offset of the first character.' }), end: t.Integer({ description: 'UTF-16 offset after the last character.' }) })
const KINDS = ['emails', 'urls', 'ipv4', 'phones', 'hashtags', 'mentions', 'money', 'dates'] as const

export default defineService({
  slug: 'entity-extract',
  name: 'Entity extraction',
  description: 'Finds emails, http(s) URLs, IPv4 addresses, phone numbers (international +CC and North-American forms), #hashtags, @mentions, money amounts ($12.50, €1,200, 30 USD) and dates (ISO-8601, 12/31/2024, Jan 5, 2024, 5 January 2024) with their offsets. Pattern-based and deterministic; no model.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({ text: t.String({ maxLength: 500_000, description: 'Text to scan.' }) }, { additionalProperties: true }),
  output: t.Object({ ...Object.fromEntries(KINDS.map((k) => [k, t.Array(Ent)])), counts: t.Record(t.String(), t.Integer()) } as unknown as Record<string, never>),
  examples: [{ name: 'Tweet', input: { text: 'Ping @ana about #launch on 2024-05-01: $1,200 budget, see https://example.com' } }],
})
