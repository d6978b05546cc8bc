import { defineService, flat, t } from '../../runtime/sdk'
import { TYPES } from './lib'

/** Common names agents use for generators. */
const GENERATOR_ALIASES: Record<string, string> = {
  integer: 'int',
  number: 'float',
  decimal: 'float',
  double: 'float',
  boolean: 'bool',
  guid: 'uuid',
  full_name: 'name',
  fullname: 'name',
  firstname: 'first_name',
  lastname: 'last_name',
  phone_number: 'phone',
  address: 'street_address',
  street: 'street_address',
  zipcode: 'zip',
  zip_code: 'zip',
  postal_code: 'zip',
  postcode: 'zip',
  ip: 'ipv4',
  ip_address: 'ipv4',
  timestamp: 'datetime',
  date_time: 'datetime',
  string: 'word',
  text: 'sentence',
  company_name: 'company',
  job: 'job_title',
  title: 'job_title',
  currency: 'currency_code',
  lat: 'latitude',
  lon: 'longitude',
  lng: 'longitude',
  colour: 'color',
  website: 'url',
}

const typeSchema = t.Union(
  TYPES.map((x) => t.Literal(x)),
  { description: `Generator: ${TYPES.join(', ')}.` },
)
const cell = t.Union([t.String({ maxLength: 200 }), t.Number(), t.Boolean(), t.Null()])

export default defineService({
  slug: 'mock-data-generate',
  name: 'Mock data generator',
  description:
    'Generates fake records, deterministic for a given `seed` (one mulberry32 stream; same seed, fields and count → same output). `fields` maps each column name to a generator, either its name or an object with options: ' +
    'id (row number), int (min-max inclusive, default 0-1000), float (min-max, `decimals` default 2), price (1-1000, 2 decimals), bool, uuid (v4 layout), date / datetime (UTC, min/max as Unix seconds, default 2000-01-01 to 2030-12-31), ' +
    'name, first_name, last_name, email (at example.com/.org/.net, RFC 2606), username, phone (+1-555-01xx, fictional), company, job_title, word, words, sentence, paragraph, city, country, country_code, street_address, zip, ' +
    'url and domain (RFC 2606 example domains), ipv4 (RFC 5737 documentation ranges), color (#rrggbb), currency_code, latitude, longitude, enum (one of `values`). ' +
    'Output as `records` (format json) or as `content` text: csv (RFC 4180 with header, CRLF) or ndjson (one JSON object per line). Up to 1,000 records and 50 fields. An answer longer than 10,000,000 characters (many records of long text fields) is a 422 INPUT_TOO_LARGE.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      fields: t.Record(
        t.String({ maxLength: 64 }),
        t.Union([
          typeSchema,
          t.Object({
            type: typeSchema,
            min: t.Optional(
              t.Number({
                minimum: -1e15,
                maximum: 1e15,
                description: 'Lower bound (int, float, price; Unix seconds for date/datetime).',
              }),
            ),
            max: t.Optional(t.Number({ minimum: -1e15, maximum: 1e15, description: 'Upper bound (as min).' })),
            decimals: t.Optional(
              t.Integer({ minimum: 0, maximum: 10, description: 'Decimals for float (default 2).' }),
            ),
            values: t.Optional(t.Array(cell, { minItems: 1, maxItems: 100, description: 'Choices for enum.' })),
          }),
        ]),
        {
          minProperties: 1,
          maxProperties: 50,
          description:
            'Column name (at most 64 characters) → generator name or {type, min, max, decimals, values}; 1-50 fields.',
        },
      ),
      count: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 1_000,
          default: 10,
          description: 'Records to generate, 1-1,000 (default 10).',
        }),
      ),
      seed: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 4_294_967_295,
          default: 1,
          description: 'PRNG seed, 0-4294967295 (default 1).',
        }),
      ),
      format: t.Optional(
        t.Union([t.Literal('json'), t.Literal('csv'), t.Literal('ndjson')], {
          default: 'json',
          description: 'json (records array, default), csv or ndjson (content text).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      schema: 'fields',
      columns: 'fields',
      rows: 'count',
      n: 'count',
      output: 'format',
      'fields.*.kind': 'type',
      'fields.*.generator': 'type',
      'fields.*.options': 'values',
      'fields.*.choices': 'values',
      'fields.*.precision': 'decimals',
    },
    values: {
      fields: GENERATOR_ALIASES,
      type: GENERATOR_ALIASES,
      format: { jsonl: 'ndjson', json_lines: 'ndjson', array: 'json' },
    },
  },
  output: t.Object({
    format: t.Union([t.Literal('json'), t.Literal('csv'), t.Literal('ndjson')], { description: 'Format produced.' }),
    count: t.Integer({ description: 'Records generated.' }),
    seed: t.Integer({ description: 'Seed used.' }),
    fields: t.Array(t.String(), { description: 'Column names, in order.' }),
    records: t.Optional(
      t.Array(t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean(), t.Null()])), {
        description: 'The records (format json).',
      }),
    ),
    content: t.Optional(t.String({ description: 'The records as CSV or NDJSON text (formats csv and ndjson).' })),
  }),
  examples: [
    {
      name: 'Three users',
      input: {
        fields: { id: 'id', name: 'name', age: { type: 'int', min: 18, max: 90 }, active: 'bool' },
        count: 3,
        seed: 42,
        format: 'json',
      },
      output: {
        format: 'json',
        count: 3,
        seed: 42,
        fields: ['id', 'name', 'age', 'active'],
        records: [
          { id: 1, name: 'Ada Turing', age: 80, active: false },
          { id: 2, name: 'Jennifer Nguyen', age: 37, active: false },
          { id: 3, name: 'Ravi Turing', age: 36, active: false },
        ],
      },
    },
  ],
})
