import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-diff',
  name: 'JSON diff',
  description:
    'Compares two JSON values and returns the changes as an RFC 6902 JSON Patch of add, remove and replace operations with RFC 6901 JSON Pointer paths; applying the operations in order turns `a` into `b`. ' +
    'Objects are compared member by member (member order does not matter); arrays by their longest common subsequence, so inserting or deleting an element in the middle is one operation, and an element replaced in place is diffed in depth. ' +
    'Numbers compare by value (1 and 1.0 are equal). `equal` is true when there is nothing to change. Values may be any JSON (objects, arrays, scalars), nested at most 64 levels; arrays whose differing middles exceed 1,000,000 LCS cells (or 5,000,000 for the whole diff) are compared position by position. A patch longer than 10,000,000 characters (long keys repeated in many paths) is a 422 INPUT_TOO_LARGE.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object(
    {
      a: t.Unknown({ description: 'The original JSON value (any type, nested at most 64 levels).' }),
      b: t.Unknown({ description: 'The changed JSON value.' }),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { old: 'a', new: 'b', before: 'a', after: 'b', left: 'a', right: 'b', original: 'a', modified: 'b' },
  },
  output: t.Object({
    equal: t.Boolean({ description: 'True when a and b are the same JSON value.' }),
    patch: t.Array(
      t.Object({
        op: t.Union([t.Literal('add'), t.Literal('remove'), t.Literal('replace')], {
          description: 'RFC 6902 operation.',
        }),
        path: t.String({ description: 'JSON Pointer (RFC 6901) of the target; "" is the whole document.' }),
        value: t.Optional(t.Unknown({ description: 'New value (add and replace).' })),
      }),
      { description: 'The JSON Patch from a to b.' },
    ),
    added: t.Integer({ description: 'Number of add operations.' }),
    removed: t.Integer({ description: 'Number of remove operations.' }),
    replaced: t.Integer({ description: 'Number of replace operations.' }),
  }),
  examples: [
    {
      name: 'Object and array changes',
      input: {
        a: { name: 'app', tags: ['a', 'c'], debug: true },
        b: { name: 'app2', tags: ['a', 'b', 'c'], port: 80 },
      },
      output: {
        equal: false,
        patch: [
          { op: 'replace', path: '/name', value: 'app2' },
          { op: 'add', path: '/tags/1', value: 'b' },
          { op: 'remove', path: '/debug' },
          { op: 'add', path: '/port', value: 80 },
        ],
        added: 2,
        removed: 1,
        replaced: 1,
      },
    },
  ],
})
