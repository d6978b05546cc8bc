import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'pii-redact',
  name: 'PII redaction',
  description:
    'Masks personal data in text: email addresses, phone numbers (international +CC forms and North-American (555) 123-4567 / 555-123-4567 / 555.123.4567 / 1-800-555-0199), US social security numbers (AAA-GG-SSSS with dashes or spaces; the never-issued area 000/666/9xx, group 00 and serial 0000 are excluded), payment card numbers (13-19 digits, optionally grouped by spaces or hyphens, masked only when they pass the Luhn check; within a longer digit run the longest Luhn-valid run of whole groups is masked) and IPv4/IPv6 addresses (IPv6 in full, compressed or IPv4-embedded form, validated). Overlaps are resolved by taking the earliest, then the longest match. Masks are [EMAIL], [PHONE], [SSN], [CARD], [IP] (style "label"), a run of * of the same length ("stars"), or all but the last 4 characters starred ("last4"). Pattern-based and linear-time: a safety net, not a guarantee (names and street addresses are not detected).',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      text: t.String({ maxLength: 500_000, description: 'Text to redact.' }),
      types: t.Optional(
        t.Array(t.Union(['email', 'phone', 'ssn', 'card', 'ip'].map((x) => t.Literal(x))), {
          maxItems: 5,
          description: 'Kinds to mask (default all).',
        }),
      ),
      mask: t.Optional(
        t.Union([t.Literal('label'), t.Literal('stars'), t.Literal('last4')], {
          default: 'label',
          description: 'How to mask.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text' } },
  output: t.Object({
    redacted: t.String(),
    counts: t.Object({ email: t.Integer(), phone: t.Integer(), ssn: t.Integer(), card: t.Integer(), ip: t.Integer() }),
    total: t.Integer(),
  }),
  examples: [
    {
      name: 'Email and card',
      input: { text: 'Mail bob@example.com, card 4111 1111 1111 1111.' },
      output: {
        redacted: 'Mail [EMAIL], card [CARD].',
        counts: { email: 1, phone: 0, ssn: 0, card: 1, ip: 0 },
        total: 2,
      },
    },
  ],
})
