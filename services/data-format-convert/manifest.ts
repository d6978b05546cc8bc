import { defineService, flat, t } from '../../runtime/sdk'
import { FORMAT_CONVERT_FIELD_ALIASES } from '../_lib/format-aliases'

const fmt = (d: string) =>
  t.Union([t.Literal('csv'), t.Literal('tsv'), t.Literal('json'), t.Literal('ndjson'), t.Literal('jsonl')], {
    description: d,
  })

export default defineService({
  slug: 'data-format-convert',
  name: 'Data format convert',
  description:
    'Converts record tables between CSV, TSV, JSON (an array of objects) and NDJSON/JSONL (one object per line), any to any. ' +
    'CSV/TSV are read as RFC 4180 with a header row (papaparse; short rows get null, surplus fields go to `_extra`) and written with Python csv.writer quoting (QUOTE_MINIMAL) and CRLF unless `newline` is "lf"; CSV values stay text unless `dynamic_typing` (numbers without leading zeros, true/false, empty → null). ' +
    'Columns keep their first-seen order; a record missing a key gets an empty CSV field and no JSON member; nested values are written to CSV as compact JSON. ' +
    '`from` defaults to auto (JSON when the text starts with [, NDJSON with {, TSV when the first line has tabs and no commas, else CSV); `to` defaults to json for CSV/TSV input and csv otherwise. ' +
    'Errors are a 422 with line and column. Up to 1,000,000 characters and 100,000 records. At most 1,000 columns, 2,000,000 cells and 10,000,000 characters of output; past those, a 422.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      input: t.String({ minLength: 1, maxLength: 1_000_000, description: 'The data (at most 1,000,000 characters).' }),
      from: t.Optional(
        t.Union(
          [
            t.Literal('auto'),
            t.Literal('csv'),
            t.Literal('tsv'),
            t.Literal('json'),
            t.Literal('ndjson'),
            t.Literal('jsonl'),
          ],
          {
            default: 'auto',
            description: 'Source format: auto (default), csv, tsv, json, ndjson or jsonl (same as ndjson).',
          },
        ),
      ),
      to: t.Optional(fmt('Target format: csv, tsv, json, ndjson or jsonl.')),
      dynamic_typing: t.Optional(
        t.Boolean({
          default: false,
          description: 'CSV/TSV input: convert numbers, true/false and empty fields (default false).',
        }),
      ),
      indent: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 8,
          default: 2,
          description: 'JSON output indentation, 0-8 (default 2; 0 = one line).',
        }),
      ),
      newline: t.Optional(
        t.Union([t.Literal('crlf'), t.Literal('lf')], {
          default: 'crlf',
          description: 'CSV/TSV output row terminator (default crlf, RFC 4180).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: FORMAT_CONVERT_FIELD_ALIASES },
  output: t.Object({
    output: t.String({ description: 'The converted text.' }),
    from: t.Union([t.Literal('csv'), t.Literal('tsv'), t.Literal('json'), t.Literal('ndjson')], {
      description: 'Source format used (jsonl reported as ndjson).',
    }),
    to: t.Union([t.Literal('csv'), t.Literal('tsv'), t.Literal('json'), t.Literal('ndjson')], {
      description: 'Target format (jsonl reported as ndjson).',
    }),
    records: t.Integer({ description: 'Records converted.' }),
    columns: t.Array(t.String(), { description: 'Columns, in order.' }),
  }),
  examples: [
    {
      name: 'CSV to NDJSON',
      input: { input: 'id,name\n1,Ada\n2,"Lovelace, A."\n', to: 'ndjson', dynamic_typing: true },
      output: {
        output: '{"id":1,"name":"Ada"}\n{"id":2,"name":"Lovelace, A."}\n',
        from: 'csv',
        to: 'ndjson',
        records: 2,
        columns: ['id', 'name'],
      },
    },
    {
      name: 'JSON to CSV',
      input: { input: '[{"id":1,"tags":["a","b"]},{"id":2,"note":"x"}]', to: 'csv' },
      output: {
        output: 'id,tags,note\r\n1,"[""a"",""b""]",\r\n2,,x\r\n',
        from: 'json',
        to: 'csv',
        records: 2,
        columns: ['id', 'tags', 'note'],
      },
    },
  ],
})
