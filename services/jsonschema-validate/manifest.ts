import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'jsonschema-validate',
  name: 'JSON Schema validate',
  description:
    'Validates any JSON value against a JSON Schema with ajv (all errors collected, formats checked by ajv-formats). Draft 2020-12 by default; a `$schema` of draft-07, draft-06 or 2019-09 selects that draft. ' +
    'Each error gives `path` as JSONPath (`$.items[0].name`; for required, additionalProperties, unevaluatedProperties and dependentRequired errors the path names the offending property), the ajv `keyword` as its code, the message, `schema_path` and `instance_path` (JSON Pointer). ' +
    'Remote `$ref`s are not fetched; `pattern`s run on RE2 (no lookaround or backreferences; linear time). A schema that does not compile is a 422. Schema up to 200,000 characters of JSON; schema and instance nested at most 64 levels. A schema whose anyOf/oneOf/not/if/contains branches would be tried more than 300,000 times over the instance (3,000,000 subschema applications in all) is a 422 before validation.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      schema: t.Union([t.Record(t.String(), t.Unknown()), t.Boolean()], {
        description: 'The JSON Schema: an object or a boolean schema (at most 200,000 characters as JSON, 64 levels).',
      }),
      instance: t.Unknown({
        description: 'The JSON value to validate: object, array, string, number, boolean or null (64 levels at most).',
      }),
      max_errors: t.Optional(
        t.Integer({ minimum: 1, maximum: 1_000, default: 100, description: 'Most errors returned (default 100).' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { data: 'instance', document: 'instance', json: 'instance' } },
  output: t.Object({
    valid: t.Boolean({ description: 'True when the instance satisfies the schema.' }),
    draft: t.Union([t.Literal('2020-12'), t.Literal('2019-09'), t.Literal('draft-07'), t.Literal('draft-06')], {
      description: 'Draft used.',
    }),
    error_count: t.Integer({ description: 'Errors found (may exceed the number listed).' }),
    errors: t.Array(
      t.Object({
        path: t.String({ description: 'JSONPath of the failing value, e.g. $.items[0].name.' }),
        instance_path: t.String({ description: 'JSON Pointer of the value ajv checked ("" is the root).' }),
        keyword: t.String({ description: 'Failed keyword (the error code), e.g. type, required, minimum, format.' }),
        message: t.String({ description: 'Human-readable message.' }),
        schema_path: t.String({ description: 'JSON Pointer fragment into the schema, e.g. #/properties/age/minimum.' }),
        params: t.Record(t.String(), t.Unknown(), {
          description: 'Keyword parameters from ajv, e.g. {"limit": 0, "comparison": ">="}.',
        }),
      }),
    ),
  }),
  examples: [
    {
      name: 'Two errors',
      input: {
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
          required: ['name'],
        },
        instance: { age: -1 },
      },
      output: {
        valid: false,
        draft: '2020-12',
        error_count: 2,
        errors: [
          {
            path: '$.name',
            instance_path: '',
            keyword: 'required',
            message: "must have required property 'name'",
            schema_path: '#/required',
            params: { missingProperty: 'name' },
          },
          {
            path: '$.age',
            instance_path: '/age',
            keyword: 'minimum',
            message: 'must be >= 0',
            schema_path: '#/properties/age/minimum',
            params: { comparison: '>=', limit: 0 },
          },
        ],
      },
    },
  ],
})
