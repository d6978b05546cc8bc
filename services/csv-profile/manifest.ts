import { defineService, flat, t } from '../../runtime/sdk'
import { delimiterSchema } from '../_lib/fields'

const num = (d: string) => t.Union([t.Number(), t.Null()], { description: d })

export default defineService({
  slug: 'csv-profile',
  name: 'CSV profile',
  description:
    "Profiles each column of a CSV/TSV (RFC 4180, parsed with papaparse): inferred type, count of values, nulls, distinct values, the most common values, samples, and for numeric columns min, max, sum, mean, median and sample standard deviation (as Python's statistics.mean/median/stdev). " +
    'A field is null when it is empty or whitespace, missing in a short row, or equal to one of `null_values`. ' +
    'Type of the non-null values: integer (all whole numbers), number (all JSON-style numbers, no leading zeros), boolean (true/false in any case), date (ISO 8601 date or date-time; min/max are then the earliest and latest text), string otherwise, empty when every value is null. ' +
    'Up to 1,000,000 characters, 100,000 rows, 1,000 columns.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.005),
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
          description: 'First row names the columns (default true); otherwise columns are column_1, column_2, ...',
        }),
      ),
      null_values: t.Optional(
        t.Array(t.String({ maxLength: 100 }), {
          maxItems: 20,
          default: [],
          description: 'Extra texts counted as null, e.g. ["NA", "N/A", "null"] (default none: only empty fields).',
        }),
      ),
      samples: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 20,
          default: 5,
          description: 'Distinct sample values per column, in order of appearance (default 5).',
        }),
      ),
      top: t.Optional(
        t.Integer({ minimum: 0, maximum: 20, default: 5, description: 'Most common values per column (default 5).' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'csv', text: 'csv', data: 'csv' } },
  output: t.Object({
    row_count: t.Integer({ description: 'Data rows (header not counted).' }),
    column_count: t.Integer({ description: 'Columns profiled.' }),
    delimiter: t.String({ description: 'Delimiter used.' }),
    columns: t.Array(
      t.Object({
        name: t.String({ description: 'Column name.' }),
        index: t.Integer({ description: '1-based column position.' }),
        type: t.Union(
          [
            t.Literal('integer'),
            t.Literal('number'),
            t.Literal('boolean'),
            t.Literal('date'),
            t.Literal('string'),
            t.Literal('empty'),
          ],
          { description: 'Inferred type of the non-null values.' },
        ),
        count: t.Integer({ description: 'Non-null values.' }),
        nulls: t.Integer({ description: 'Null values (empty, whitespace, missing or in null_values).' }),
        distinct: t.Integer({ description: 'Distinct non-null values (exact text).' }),
        unique: t.Boolean({ description: 'True when every non-null value occurs once.' }),
        min: t.Union([t.Number(), t.String(), t.Null()], {
          description: 'Smallest value (number for numeric columns, text for dates; null otherwise).',
        }),
        max: t.Union([t.Number(), t.String(), t.Null()], { description: 'Largest value (as for min).' }),
        sum: num('Sum (numeric columns).'),
        mean: num('Arithmetic mean (numeric columns).'),
        median: num('Median (numeric columns).'),
        stddev: num('Sample standard deviation (numeric columns with at least 2 values).'),
        min_length: t.Union([t.Integer(), t.Null()], { description: 'Shortest non-null value, in characters.' }),
        max_length: t.Union([t.Integer(), t.Null()], { description: 'Longest non-null value, in characters.' }),
        top: t.Array(t.Object({ value: t.String(), count: t.Integer() }), {
          description: 'Most common values, ties in order of appearance.',
        }),
        samples: t.Array(t.String(), { description: 'First distinct values.' }),
      }),
    ),
  }),
  examples: [
    {
      name: 'Two columns',
      input: { csv: 'city,temp\nParis,21.5\nRome,\nParis,19\n' },
      output: {
        row_count: 3,
        column_count: 2,
        delimiter: ',',
        columns: [
          {
            name: 'city',
            index: 1,
            type: 'string',
            count: 3,
            nulls: 0,
            distinct: 2,
            unique: false,
            min: null,
            max: null,
            sum: null,
            mean: null,
            median: null,
            stddev: null,
            min_length: 4,
            max_length: 5,
            top: [
              { value: 'Paris', count: 2 },
              { value: 'Rome', count: 1 },
            ],
            samples: ['Paris', 'Rome'],
          },
          {
            name: 'temp',
            index: 2,
            type: 'number',
            count: 2,
            nulls: 1,
            distinct: 2,
            unique: true,
            min: 19,
            max: 21.5,
            sum: 40.5,
            mean: 20.25,
            median: 20.25,
            stddev: 1.767767,
            min_length: 2,
            max_length: 4,
            top: [
              { value: '21.5', count: 1 },
              { value: '19', count: 1 },
            ],
            samples: ['21.5', '19'],
          },
        ],
      },
    },
  ],
})
