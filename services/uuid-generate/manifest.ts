import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'uuid-generate',
  name: 'UUID generator',
  description:
    'UUIDs per RFC 9562: version 4 (random, from a CSPRNG) or version 5 (SHA-1 name-based: the same namespace and name always give the same UUID). Namespaces dns, url, oid, x500 or any UUID. Up to 100 per call; optional upper case and no hyphens.',
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      version: t.Optional(
        t.Union([t.Literal(4), t.Literal(5)], { default: 4, description: '4 (random) or 5 (name-based, SHA-1).' }),
      ),
      count: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 100,
          default: 1,
          description: 'How many UUIDs (1-100). For v5, names get the suffixes -1, -2, ... when count > 1.',
        }),
      ),
      namespace: t.Optional(
        t.String({ maxLength: 36, default: 'dns', description: 'v5 namespace: dns, url, oid, x500, or a UUID.' }),
      ),
      name: t.Optional(t.String({ maxLength: 10_000, description: 'v5 name (required for version 5).' })),
      uppercase: t.Optional(t.Boolean({ default: false, description: 'Upper-case hex digits.' })),
      hyphens: t.Optional(t.Boolean({ default: true, description: 'Keep the hyphens (false gives 32 hex digits).' })),
      no_hyphens: t.Optional(
        t.Boolean({ description: 'true gives 32 hex digits without hyphens (the same as hyphens: false).' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      upper: 'uppercase',
      upper_case: 'uppercase',
      quantity: 'count',
      n: 'count',
      number: 'count',
      batch: 'count',
    },
  },
  output: t.Object({
    version: t.Integer(),
    uuids: t.Array(t.String(), { description: 'The generated UUIDs.' }),
  }),
  examples: [
    {
      name: 'v5 of www.example.com',
      input: { version: 5, namespace: 'dns', name: 'www.example.com' },
      output: { version: 5, uuids: ['2ed6657d-e927-568b-95e1-2665a8aea6a2'] },
    },
  ],
})
