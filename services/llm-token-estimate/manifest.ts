import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'llm-token-estimate',
  name: 'LLM token estimate',
  description:
    'Heuristic token count for English-like text (`tokens`) and an illustrative cost projection. tokens = round((characters/4 + words×4/3) / 2): the mean of the two common rules of thumb (about 4 characters or 0.75 words per token for BPE tokenizers such as cl100k). Real counts vary by tokenizer and language (code and non-Latin scripts use more tokens). Prices are illustrative vendor list prices per million tokens as published in January 2025 (prices_as_of), not quotes: check the vendor before relying on them.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      text: t.String({ maxLength: 2_000_000, description: 'The prompt or document.' }),
      expected_output_tokens: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 10_000_000,
          default: 0,
          description: 'Output tokens to include in the cost projection.',
        }),
      ),
      calls: t.Optional(
        t.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1, description: 'Number of calls to project.' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text', prompt: 'text' } },
  output: t.Object({
    characters: t.Integer(),
    words: t.Integer(),
    tokens: t.Integer({ description: 'Estimated tokens (the figure; also in `estimate`).' }),
    estimate: t.Integer({ description: 'Estimated tokens, the same figure as `tokens` (kept for older clients).' }),
    by_characters: t.Integer({ description: 'characters / 4' }),
    by_words: t.Integer({ description: 'words × 4/3' }),
    method: t.String(),
    projections: t.Array(
      t.Object({
        model: t.String(),
        input_per_million_usd: t.Number(),
        output_per_million_usd: t.Number(),
        cost_usd: t.Number({ description: 'For `calls` calls.' }),
      }),
    ),
    prices_as_of: t.String({ description: 'Month the listed prices were taken from (YYYY-MM).' }),
  }),
  examples: [
    {
      name: 'Sentence',
      input: { text: 'The quick brown fox jumps over the lazy dog.' },
      output: {
        characters: 44,
        words: 9,
        tokens: 12,
        estimate: 12,
        by_characters: 11,
        by_words: 12,
        method: 'mean of characters/4 and words×4/3',
        projections: [
          { model: 'gpt-4o-mini', input_per_million_usd: 0.15, output_per_million_usd: 0.6, cost_usd: 0.0000018 },
          { model: 'gpt-4o', input_per_million_usd: 2.5, output_per_million_usd: 10, cost_usd: 0.00003 },
          { model: 'claude-3.5-haiku', input_per_million_usd: 0.8, output_per_million_usd: 4, cost_usd: 0.0000096 },
          { model: 'claude-3.5-sonnet', input_per_million_usd: 3, output_per_million_usd: 15, cost_usd: 0.000036 },
          {
            model: 'llama-3.1-70b (hosted)',
            input_per_million_usd: 0.6,
            output_per_million_usd: 0.6,
            cost_usd: 0.0000072,
          },
        ],
        prices_as_of: '2025-01',
      },
    },
  ],
})
