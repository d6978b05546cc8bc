import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-schema-infer',
  name: 'JSON Schema infer',
  description:
    'Infers a JSON Schema (draft 2020-12) that every sample satisfies. Each value contributes its type (integer for whole numbers; integer and number together give number; several types give a `type` array); ' +
    'objects give `properties` (keys in first-seen order) and `required` (keys present in every object sample at that place); arrays give `items` merged over all elements of all samples. ' +
    "With `detect_formats` (default true) a string field gets `format` when all its values pass ajv-formats' check of one of: date-time, date, time, uuid, email, ipv4, ipv6, uri (first match in that order). " +
    '`additional_properties: false` closes every object. The schema is checked with ajv (draft 2020-12 + ajv-formats) against every sample before it is returned. ' +
    'Up to 1,000 samples, 64 levels of nesting. At most 1,000 distinct properties in all (a 422 past that).',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  errors: {
    INFERENCE_FAILED: {
      status: 500,
      description: 'the inferred schema does not accept every sample (a bug: report it)',
    },
  },
  input: t.Object(
    {
      samples: t.Array(t.Unknown(), {
        minItems: 1,
        maxItems: 1_000,
        description: 'Example JSON values, usually objects (1-1,000; nesting at most 64 levels).',
      }),
      detect_formats: t.Optional(
        t.Boolean({
          default: true,
          description: 'Add `format` to string fields whose values all share one (default true).',
        }),
      ),
      additional_properties: t.Optional(
        t.Boolean({
          default: true,
          description: 'false adds "additionalProperties": false to every object (default true: open objects).',
        }),
      ),
      title: t.Optional(t.String({ maxLength: 200, description: 'Optional `title` for the schema.' })),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { examples: 'samples', data: 'samples', documents: 'samples' } },
  output: t.Object({
    schema: t.Record(t.String(), t.Unknown(), {
      description: 'The inferred JSON Schema (draft 2020-12), with `$schema` set.',
    }),
    sample_count: t.Integer({ description: 'Samples read.' }),
    samples_valid: t.Boolean({
      description: 'True: ajv (draft 2020-12, formats checked) accepts every sample against the schema.',
    }),
  }),
  examples: [
    {
      name: 'Two user records',
      input: {
        samples: [
          { id: 1, email: 'ada@example.com', tags: ['a'] },
          { id: 2, email: 'bob@example.com', score: 9.5 },
        ],
      },
      output: {
        schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            id: { type: 'integer' },
            email: { type: 'string', format: 'email' },
            tags: { type: 'array', items: { type: 'string' } },
            score: { type: 'number' },
          },
          required: ['id', 'email'],
        },
        sample_count: 2,
        samples_valid: true,
      },
    },
  ],
})
