import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'extract-structured',
  name: 'Extract structured',
  description:
    'Extracts the requested fields from unstructured text. `fields` is a comma-separated list or an array of field names (at most 50; ' +
    'letters, digits, spaces, `_`, `-`, `.`), optionally each with a hint after a colon (`due_date: ISO date`). The answer holds exactly ' +
    'the requested fields: a string, number, boolean or list of strings, or null when the text does not state it (listed in `missing`). ' +
    'Text: at most 20,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.01),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      text: t.String({
        minLength: 1,
        maxLength: 20_000,
        description: 'The text to extract from (at most 20,000 characters).',
      }),
      fields: t.Union(
        [
          t.String({ minLength: 1, maxLength: 4_000 }),
          t.Array(t.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 50 }),
        ],
        {
          description: 'Field names: comma-separated string or array; `name: hint` adds a type or format hint.',
        },
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', schema: 'fields', keys: 'fields' } },
  output: t.Object({
    data: t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean(), t.Null(), t.Array(t.String())]), {
      description: 'Exactly the requested fields.',
    }),
    missing: t.Array(t.String(), { description: 'Requested fields the text does not state (null in data).' }),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Contact details',
      input: {
        text: 'Hi, I am Jane Roe from Acme. Call me on +1 415 555 0100.',
        fields: 'name, company, phone, email',
      },
      output: {
        data: { name: 'Jane Roe', company: 'Acme', phone: '+1 415 555 0100', email: null },
        missing: ['email'],
        model: 'gpt-4.1-mini',
        tokens_used: 231,
      },
    },
  ],
})
