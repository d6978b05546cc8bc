import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini (used only when the deterministic repair fails). */
export default defineService({
  slug: 'json-repair',
  name: 'JSON repair',
  description:
    'Fixes malformed or truncated JSON. Valid JSON is returned as is; otherwise a deterministic repair runs first (the `jsonrepair` ' +
    'library: quotes, trailing commas, comments, Python literals, truncation); only when that fails is the model asked, and its ' +
    'answer must parse. `method` says which path produced the answer (`model` is `none` and `tokens_used` 0 for the deterministic path). ' +
    'Input: at most 200,000 characters; the model path accepts at most 16,000 (413 beyond).',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.008),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      json: t.String({
        minLength: 1,
        maxLength: 200_000,
        description: 'The broken JSON text (at most 200,000 characters).',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'json', text: 'json' } },
  output: t.Object({
    repaired: t.String({ description: 'The repaired JSON text.' }),
    value: t.Unknown({ description: 'The repaired JSON, parsed.' }),
    method: t.Union([t.Literal('unchanged'), t.Literal('deterministic'), t.Literal('model')], {
      description: 'unchanged: the input was already valid JSON.',
    }),
    changed: t.Boolean(),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Python-style dict, trailing comma',
      input: { json: "{'name': 'Ada', active: True, tags: ['x',],}" },
      output: {
        repaired: '{"name": "Ada", "active": true, "tags": ["x"]}',
        value: { name: 'Ada', active: true, tags: ['x'] },
        method: 'deterministic',
        changed: true,
        model: 'none',
        tokens_used: 0,
      },
    },
  ],
})
