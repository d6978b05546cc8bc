import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-to-csv',
  name: 'JSON to CSV',
  description:
    "Turns an array of objects into CSV with a header row. Columns are the union of the objects' keys in first-seen order (JSON objects list integer-like keys first), or exactly `columns` when given. " +
    "Quoting follows RFC 4180 and Python's csv.writer (QUOTE_MINIMAL): a field is quoted only when it holds the delimiter, a double quote or a line break, and quotes are doubled. " +
    'Missing keys and null are empty fields; numbers and booleans are written as in JSON (true/false); nested objects and arrays are written as compact JSON. ' +
    'Rows end with CRLF (RFC 4180) unless `newline` is "lf". `escape_formulas` prefixes cells starting with = + - @ TAB or CR with \' (spreadsheet formula injection guard). Up to 10,000 rows and 1,000 columns. At most 2,000,000 cells (rows × columns) and 10,000,000 characters of CSV; past either, a 422 INPUT_TOO_LARGE.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      rows: t.Array(t.Record(t.String(), t.Unknown()), {
        minItems: 1,
        maxItems: 10_000,
        description: 'The rows: JSON objects (at most 10,000; values nested at most 64 levels).',
      }),
      columns: t.Optional(
        t.Array(t.String({ maxLength: 1_000 }), {
          minItems: 1,
          maxItems: 1_000,
          description: 'Columns to write, in this order (default: every key, first-seen order).',
        }),
      ),
      delimiter: t.Optional(
        t.Union([t.Literal(','), t.Literal('\t'), t.Literal(';'), t.Literal('|')], {
          default: ',',
          description: 'Field delimiter: , (default), \\t (TSV), ; or |.',
        }),
      ),
      header: t.Optional(t.Boolean({ default: true, description: 'Write the header row (default true).' })),
      newline: t.Optional(
        t.Union([t.Literal('crlf'), t.Literal('lf')], {
          default: 'crlf',
          description: 'Row terminator: crlf (RFC 4180, default) or lf.',
        }),
      ),
      escape_formulas: t.Optional(
        t.Boolean({ default: false, description: "Prefix cells starting with = + - @ TAB CR with ' (default false)." }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { data: 'rows', records: 'rows', json: 'rows', items: 'rows' } },
  output: t.Object({
    csv: t.String({ description: 'The CSV text; every row, the last included, ends with the newline.' }),
    columns: t.Array(t.String(), { description: 'Columns written, in order.' }),
    row_count: t.Integer({ description: 'Data rows written (header not counted).' }),
    column_count: t.Integer({ description: 'Number of columns.' }),
  }),
  examples: [
    {
      name: 'Objects with different keys',
      input: {
        rows: [
          { name: 'Ada', tags: ['math', 'code'] },
          { name: 'Lovelace, A.', age: 36 },
        ],
      },
      output: {
        csv: 'name,tags,age\r\nAda,"[""math"",""code""]",\r\n"Lovelace, A.",,36\r\n',
        columns: ['name', 'tags', 'age'],
        row_count: 2,
        column_count: 3,
      },
    },
  ],
})
