import { defineService, flat, t } from '../../runtime/sdk'
import { delimiterSchema } from '../_lib/fields'

const cell = t.Union([t.String(), t.Number(), t.Boolean(), t.Null()])

export default defineService({
  slug: 'csv-to-json',
  name: 'CSV to JSON',
  description:
    'Parses CSV or TSV (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes, CRLF or LF) with papaparse. ' +
    'With `header` (default true) the first row names the columns and each row becomes an object (an empty name becomes column_N, a repeated name gets _2, _3; a short row gets null for missing fields; surplus fields go to `_extra`, and both are listed in `warnings`); without it each row is an array of strings. ' +
    'The delimiter is guessed by default among , TAB ; |. Empty lines are skipped; a leading BOM is ignored. ' +
    'Values stay text unless `dynamic_typing` is set: then true/false (any case) become booleans, JSON-style numbers become numbers (leading zeros such as 007 and integers beyond 2^53 stay text) and empty fields become null. ' +
    'An unclosed quoted field or text after a closing quote is a 422 with line and column. Up to 1,000,000 characters, 100,000 rows, 1,000 columns. ' +
    'JSON objects list integer-like keys first; `columns` gives the original order. At most 2,000,000 cells (rows × header columns, short rows padded) and about 10,000,000 characters of answer; past either, a 422 INPUT_TOO_LARGE.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      csv: t.String({
        minLength: 1,
        maxLength: 1_000_000,
        description: 'The CSV or TSV text (at most 1,000,000 characters).',
      }),
      delimiter: t.Optional(delimiterSchema()),
      header: t.Optional(
        t.Boolean({
          default: true,
          description: 'First row is a header: rows become objects (default true). False: rows are arrays.',
        }),
      ),
      dynamic_typing: t.Optional(
        t.Boolean({
          default: false,
          description: 'Convert numbers, true/false and empty fields (default false: every value is text).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      input: 'csv',
      text: 'csv',
      data: 'csv',
      tsv: 'csv',
      has_header: 'header',
      headers: 'header',
      typed: 'dynamic_typing',
      parse_numbers: 'dynamic_typing',
    },
  },
  output: t.Object({
    rows: t.Array(t.Union([t.Record(t.String(), t.Union([cell, t.Array(cell)])), t.Array(cell)]), {
      description: 'One object per data row (header true) or one array per row (header false).',
    }),
    columns: t.Union([t.Array(t.String()), t.Null()], {
      description: 'Column names in header order (null when header is false).',
    }),
    row_count: t.Integer({ description: 'Rows returned (the header row is not counted).' }),
    column_count: t.Integer({ description: 'Columns in the header, or the widest row when header is false.' }),
    delimiter: t.String({ description: 'Delimiter used: "," "\\t" ";" or "|".' }),
    warnings: t.Array(t.String(), {
      description: 'Rows whose field count differs from the header (at most 20 listed).',
    }),
  }),
  examples: [
    {
      name: 'CSV with a quoted field',
      input: { csv: 'name,city\r\nAda,London\r\n"Lovelace, A.",Paris\r\n' },
      output: {
        rows: [
          { name: 'Ada', city: 'London' },
          { name: 'Lovelace, A.', city: 'Paris' },
        ],
        columns: ['name', 'city'],
        row_count: 2,
        column_count: 2,
        delimiter: ',',
        warnings: [],
      },
    },
    {
      name: 'TSV with typing',
      input: { csv: 'id\tscore\tok\n1\t9.5\ttrue\n2\t\tfalse\n', dynamic_typing: true },
      output: {
        rows: [
          { id: 1, score: 9.5, ok: true },
          { id: 2, score: null, ok: false },
        ],
        columns: ['id', 'score', 'ok'],
        row_count: 2,
        column_count: 3,
        delimiter: '\t',
        warnings: [],
      },
    },
  ],
})
