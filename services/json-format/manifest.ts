import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-format',
  name: 'JSON format',
  description:
    "Pretty-prints or minifies JSON text and optionally sorts object keys, like Python's json.dumps(obj, indent=N, sort_keys=..., ensure_ascii=False): " +
    '`indent` spaces per level (default 2; 0 is the same as `minify`), `minify` gives the compact form with no whitespace (separators "," and ":"). ' +
    'Member order is kept as written, numbers are copied exactly as written (no precision loss), keys sort by code point, a repeated key keeps its last value at its first position. ' +
    "Reports the byte sizes (UTF-8) before and after. Text that is not JSON (RFC 8259; NaN/Infinity/comments/trailing commas are not JSON) is a 422 naming the line and column of the first error, with Python's json message. Up to 1,000,000 characters and 64 levels of nesting. An answer longer than 10,000,000 characters (deep nesting with a wide indent) is a 422 INPUT_TOO_LARGE.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      json: t.String({
        minLength: 1,
        maxLength: 1_000_000,
        description: 'The JSON text (at most 1,000,000 characters, 64 levels of nesting).',
      }),
      indent: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 8,
          default: 2,
          description: 'Spaces per nesting level, 1-8 (default 2); 0 minifies (same as `minify: true`).',
        }),
      ),
      minify: t.Optional(
        t.Boolean({ default: false, description: 'Compact output with no whitespace (default false).' }),
      ),
      sort_keys: t.Optional(
        t.Boolean({
          default: false,
          description: 'Sort object keys by code point at every level (default false: keep the order written).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      input: 'json',
      text: 'json',
      data: 'json',
      compact: 'minify',
      sort: 'sort_keys',
      sorted: 'sort_keys',
      spaces: 'indent',
    },
  },
  output: t.Object({
    valid: t.Boolean({ description: 'Always true (invalid JSON is a 422 with line and column).' }),
    formatted: t.String({ description: 'The re-serialized JSON.' }),
    mode: t.Union([t.Literal('pretty'), t.Literal('minified')], { description: 'Which form was produced.' }),
    top_level_type: t.Union(
      [
        t.Literal('object'),
        t.Literal('array'),
        t.Literal('string'),
        t.Literal('number'),
        t.Literal('boolean'),
        t.Literal('null'),
      ],
      { description: 'JSON type of the document.' },
    ),
    depth: t.Integer({ description: 'Nesting depth (a scalar is 0, `[]` is 1).' }),
    duplicate_keys: t.Integer({
      description: 'Object members dropped because their key repeated an earlier one in the same object.',
    }),
    bytes_before: t.Integer({ description: 'UTF-8 size of the input.' }),
    bytes_after: t.Integer({ description: 'UTF-8 size of `formatted`.' }),
    bytes_delta: t.Integer({ description: 'bytes_after - bytes_before (negative when smaller).' }),
  }),
  examples: [
    {
      name: 'Pretty-print with sorted keys',
      input: { json: '{"b":1,"a":[true,null]}', indent: 2, sort_keys: true },
      output: {
        valid: true,
        formatted: '{\n  "a": [\n    true,\n    null\n  ],\n  "b": 1\n}',
        mode: 'pretty',
        top_level_type: 'object',
        depth: 2,
        duplicate_keys: 0,
        bytes_before: 23,
        bytes_after: 45,
        bytes_delta: 22,
      },
    },
    {
      name: 'Minify',
      input: { json: '{\n  "a": 1,\n  "b": [1, 2]\n}', minify: true },
      output: {
        valid: true,
        formatted: '{"a":1,"b":[1,2]}',
        mode: 'minified',
        top_level_type: 'object',
        depth: 2,
        duplicate_keys: 0,
        bytes_before: 27,
        bytes_after: 17,
        bytes_delta: -10,
      },
    },
  ],
})
