import { defineService, flat, t } from '../../runtime/sdk'
import { delimiterSchema } from '../_lib/fields'

export default defineService({
  slug: 'data-format-validate',
  name: 'Data format validate',
  description:
    'Checks that text is well-formed JSON, YAML, CSV or XML. Answers `valid`, and for invalid text the first error with its 1-based line and column (columns count characters); for valid text a normalized copy and a few facts. ' +
    "JSON: RFC 8259 (no NaN, comments or trailing commas), errors with Python's json message and position; normalized = 2-space indentation, numbers as written. " +
    "YAML: YAML 1.2 stream (several documents allowed, duplicate keys and unresolved aliases are errors; parsed with `yaml`); normalized = yaml's re-serialization, comments kept. " +
    'CSV: RFC 4180 (papaparse; quotes must close, every record must have the same number of fields; delimiter guessed unless given); normalized = minimal quoting with CRLF. ' +
    'XML: well-formedness (fast-xml-parser validator: one root, matching tags, quoted unique attributes); normalized = 2-space indentation, comments and CDATA kept. ' +
    "An invalid document is a 200 with valid false; a document beyond this service's limits (XML entity declarations, XML nesting over 64 or JSON over 512 levels, YAML aliases expanded over 100 times, over 100,000 CSV rows) is a 422. Up to 1,000,000 characters. A normalized copy longer than 10,000,000 characters is a 422 INPUT_TOO_LARGE.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      input: t.String({ maxLength: 1_000_000, description: 'The text to check (at most 1,000,000 characters).' }),
      format: t.Union([t.Literal('json'), t.Literal('yaml'), t.Literal('csv'), t.Literal('xml')], {
        description: 'json, yaml, csv or xml.',
      }),
      delimiter: t.Optional(delimiterSchema()),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { data: 'input', text: 'input', type: 'format' } },
  output: t.Object({
    valid: t.Boolean({ description: 'True when the text is well-formed in that format.' }),
    format: t.Union([t.Literal('json'), t.Literal('yaml'), t.Literal('csv'), t.Literal('xml')], {
      description: 'Format checked.',
    }),
    error: t.Union(
      [
        t.Object({
          message: t.String({ description: 'What is wrong.' }),
          line: t.Integer({ description: '1-based line.' }),
          column: t.Integer({ description: '1-based column.' }),
        }),
        t.Null(),
      ],
      { description: 'The first error (null when valid).' },
    ),
    normalized: t.Union([t.String(), t.Null()], { description: 'A normalized copy (null when invalid).' }),
    stats: t.Object(
      {
        top_level_type: t.Optional(t.String({ description: 'JSON: type of the document.' })),
        depth: t.Optional(t.Integer({ description: 'JSON: nesting depth.' })),
        rows: t.Optional(t.Integer({ description: 'CSV: records, header included.' })),
        columns: t.Optional(t.Integer({ description: 'CSV: fields per record.' })),
        root: t.Optional(t.String({ description: 'XML: name of the root element.' })),
        documents: t.Optional(t.Integer({ description: 'YAML: documents in the stream.' })),
      },
      { description: 'Facts about a valid document (empty when invalid).' },
    ),
  }),
  examples: [
    {
      name: 'Invalid JSON',
      input: { input: '{"a": 1,\n "b": [1, 2,]}', format: 'json' },
      output: {
        valid: false,
        format: 'json',
        error: { message: 'Expecting value', line: 2, column: 13 },
        normalized: null,
        stats: {},
      },
    },
    {
      name: 'Valid CSV',
      input: { input: 'a,b\n1,"x, y"\n', format: 'csv' },
      output: {
        valid: true,
        format: 'csv',
        error: null,
        normalized: 'a,b\r\n1,"x, y"\r\n',
        stats: { rows: 2, columns: 2 },
      },
    },
  ],
})
