import { defineService, flat, t } from '../../runtime/sdk'
import { FORMAT_CONVERT_FIELD_ALIASES } from '../_lib/format-aliases'

const fmt = (d: string) => t.Union([t.Literal('json'), t.Literal('yaml')], { description: d })

export default defineService({
  slug: 'json-yaml-convert',
  name: 'JSON ⇄ YAML',
  description:
    'Converts JSON to YAML and YAML to JSON with the `yaml` package (YAML 1.2 core schema, also under a `%YAML 1.1` directive: `yes`/`no`/`on` stay strings, `~` and `null` are null, `<<` is a plain key). ' +
    '`from` defaults to auto (JSON when the text parses as JSON, YAML otherwise) and `to` to the other format. Member order is kept; `sort_keys` sorts them. YAML output is block style with `indent` spaces (default 2); JSON output is indented by `indent`, or one line with `compact`. ' +
    'A YAML stream must hold one document; duplicate keys, anchors expanded more than 100 times (billion-laughs guard), .inf/.nan (not JSON) and nesting deeper than 64 levels are refused. ' +
    "Parse errors are a 422 with line and column (JSON errors use Python's json message). Up to 1,000,000 characters. An answer longer than 10,000,000 characters (deep nesting with a wide indent) is a 422 INPUT_TOO_LARGE.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      input: t.String({
        minLength: 1,
        maxLength: 1_000_000,
        description: 'The JSON or YAML text (at most 1,000,000 characters).',
      }),
      from: t.Optional(
        t.Union([t.Literal('auto'), t.Literal('json'), t.Literal('yaml')], {
          default: 'auto',
          description: 'Source format: auto (default), json or yaml.',
        }),
      ),
      to: t.Optional(fmt('Target format: json or yaml (default: the other one).')),
      indent: t.Optional(
        t.Integer({ minimum: 1, maximum: 8, default: 2, description: 'Indentation, 1-8 spaces (default 2).' }),
      ),
      compact: t.Optional(t.Boolean({ default: false, description: 'JSON output on one line (default false).' })),
      sort_keys: t.Optional(
        t.Boolean({ default: false, description: 'Sort mapping keys (default false: keep the order written).' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: FORMAT_CONVERT_FIELD_ALIASES },
  output: t.Object({
    output: t.String({ description: 'The converted text (ends with a newline for YAML).' }),
    from: fmt('Source format used.'),
    to: fmt('Target format.'),
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
  }),
  examples: [
    {
      name: 'JSON to YAML',
      input: { input: '{"name":"app","ports":[80,443],"debug":false}' },
      output: {
        output: 'name: app\nports:\n  - 80\n  - 443\ndebug: false\n',
        from: 'json',
        to: 'yaml',
        top_level_type: 'object',
      },
    },
    {
      name: 'YAML to JSON',
      input: { input: 'name: app\nports:\n  - 80\n  - 443\n', from: 'yaml', to: 'json' },
      output: {
        output: '{\n  "name": "app",\n  "ports": [\n    80,\n    443\n  ]\n}',
        from: 'yaml',
        to: 'json',
        top_level_type: 'object',
      },
    },
  ],
})
