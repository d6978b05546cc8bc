import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'jsonpath-extract',
  name: 'JSONPath extract',
  description:
    'Extracts values from any JSON document by paths in dot/bracket notation (the RFC 9535 JSONPath subset): optional `$` root, `.name` or `a.b.c`, `[\'name\']` / `["name"]` for any key, `[0]` and `[-1]` (from the end), `*` / `[*]` wildcards and `..name` descendants (document order). ' +
    'A dotted all-digit step (`a.0.b`) also indexes an array. Only own members are looked up (`length`, `constructor` are not found). ' +
    'A path that matches nothing is reported with `found: false`, not as an error; a path that cannot be parsed is a 422 naming it. Each match comes with its normalized path. ' +
    'Up to 100 paths of 1,000 characters, 10,000 matches per path, data nested at most 64 levels. The paths of one call visit at most 1,000,000 nodes together and answer at most 10,000,000 characters (each match holds its whole value); past either, a 422.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      data: t.Unknown({ description: 'The JSON document (any JSON value, nested at most 64 levels).' }),
      paths: t.Array(t.String({ minLength: 1, maxLength: 1_000 }), {
        minItems: 1,
        maxItems: 100,
        description: 'Paths to extract, e.g. "a.b[0].c", "$.store.book[*].author", "$[\'key with spaces\']" (1-100).',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { json: 'data', object: 'data', document: 'data' } },
  output: t.Object({
    results: t.Array(
      t.Object({
        path: t.String({ description: 'The path as given.' }),
        found: t.Boolean({ description: 'True when at least one value matched.' }),
        count: t.Integer({ description: 'Number of matches.' }),
        value: t.Unknown({ description: 'The first matched value (null when none matched).' }),
        values: t.Array(t.Unknown(), { description: 'Every matched value, in document order.' }),
        matches: t.Array(t.String(), { description: 'Normalized path of each match, e.g. $.store.book[0].author.' }),
        truncated: t.Boolean({ description: 'True when more than 10,000 values matched and the rest were dropped.' }),
      }),
    ),
    found_count: t.Integer({ description: 'Paths that matched at least one value.' }),
    missing: t.Array(t.String(), { description: 'Paths that matched nothing.' }),
  }),
  examples: [
    {
      name: 'Dot, index and missing paths',
      input: {
        data: { user: { name: 'Ada', langs: ['en', 'fr'] } },
        paths: ['user.name', '$.user.langs[-1]', 'user.email'],
      },
      output: {
        results: [
          {
            path: 'user.name',
            found: true,
            count: 1,
            value: 'Ada',
            values: ['Ada'],
            matches: ['$.user.name'],
            truncated: false,
          },
          {
            path: '$.user.langs[-1]',
            found: true,
            count: 1,
            value: 'fr',
            values: ['fr'],
            matches: ['$.user.langs[1]'],
            truncated: false,
          },
          { path: 'user.email', found: false, count: 0, value: null, values: [], matches: [], truncated: false },
        ],
        found_count: 2,
        missing: ['user.email'],
      },
    },
  ],
})
