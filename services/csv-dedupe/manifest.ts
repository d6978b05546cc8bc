import { defineService, flat, t } from '../../runtime/sdk'
import { delimiterSchema } from '../_lib/fields'

export default defineService({
  slug: 'csv-dedupe',
  name: 'CSV dedupe',
  description:
    'Removes duplicate rows from CSV/TSV (RFC 4180, parsed with papaparse). Two rows are duplicates when they are equal on the `keys` columns (header names, or 1-based column numbers; default: every column); `ignore_case` and `trim` loosen the comparison. ' +
    'Keeps the first occurrence by default (`keep: "last"` keeps the last one), preserving the order of the kept rows. ' +
    "Returns the cleaned CSV (same delimiter and line break as the input, quoted only where needed, as Python's csv.writer does) and a report of removed rows: `row` is the 1-based data row (the header is not counted), `line` the line where it starts, `duplicate_of` the row that was kept. " +
    'Empty lines are skipped. Up to 1,000,000 characters, 100,000 rows; the report lists at most 1,000 removed rows.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      csv: t.String({
        minLength: 1,
        maxLength: 1_000_000,
        description: 'The CSV or TSV text (at most 1,000,000 characters).',
      }),
      keys: t.Optional(
        t.Array(t.Union([t.String({ maxLength: 1_000 }), t.Integer({ minimum: 1, maximum: 1_000 })]), {
          maxItems: 100,
          description: 'Columns that identify a row: header names or 1-based column numbers (default: all columns).',
        }),
      ),
      header: t.Optional(
        t.Boolean({
          default: true,
          description: 'First row is a header, kept as is (default true). When false, keys must be column numbers.',
        }),
      ),
      delimiter: t.Optional(delimiterSchema()),
      keep: t.Optional(
        t.Union([t.Literal('first'), t.Literal('last')], {
          default: 'first',
          description: 'Which occurrence to keep: first (default) or last.',
        }),
      ),
      ignore_case: t.Optional(
        t.Boolean({ default: false, description: 'Compare key values case-insensitively (default false).' }),
      ),
      trim: t.Optional(
        t.Boolean({
          default: false,
          description: 'Ignore leading and trailing whitespace in key values (default false).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { columns: 'keys', key: 'keys', by: 'keys', input: 'csv', text: 'csv' } },
  output: t.Object({
    csv: t.String({ description: 'The CSV without the removed rows.' }),
    keys: t.Array(t.String(), { description: 'Key columns used (names, or column numbers as text without a header).' }),
    rows_in: t.Integer({ description: 'Data rows read (header not counted).' }),
    rows_out: t.Integer({ description: 'Data rows kept.' }),
    removed_count: t.Integer({ description: 'Rows removed.' }),
    removed: t.Array(
      t.Object({
        row: t.Integer({ description: '1-based data row number of the removed row.' }),
        line: t.Integer({ description: 'Line where the removed row starts.' }),
        duplicate_of: t.Integer({ description: 'Data row number of the row that was kept.' }),
        key: t.Array(t.String(), { description: 'The key values of the removed row, as written.' }),
      }),
      { description: 'Removed rows in input order (at most 1,000 listed).' },
    ),
    delimiter: t.String({ description: 'Delimiter used.' }),
  }),
  examples: [
    {
      name: 'Dedupe on email, ignoring case',
      input: { csv: 'email,name\na@x.io,Ada\nb@x.io,Bob\nA@X.io,Ada L.\n', keys: ['email'], ignore_case: true },
      output: {
        csv: 'email,name\na@x.io,Ada\nb@x.io,Bob\n',
        keys: ['email'],
        rows_in: 3,
        rows_out: 2,
        removed_count: 1,
        removed: [{ row: 3, line: 4, duplicate_of: 1, key: ['A@X.io'] }],
        delimiter: ',',
      },
    },
  ],
})
