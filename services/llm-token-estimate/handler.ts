import { handlerFor } from '../../runtime/sdk'
import { words as split } from '../_lib/text'
import manifest from './manifest'

/**
 * Illustrative list prices (USD per 1M tokens, input/output) as the vendors published them in January 2025
 * (OpenAI and Anthropic pricing pages; Llama 3.1 70B a typical hosted price). Not quotes: prices change.
 */
export const PRICES_AS_OF = '2025-01'
const PRICES: Array<[string, number, number]> = [
  ['gpt-4o-mini', 0.15, 0.6],
  ['gpt-4o', 2.5, 10],
  ['claude-3.5-haiku', 0.8, 4],
  ['claude-3.5-sonnet', 3, 15],
  ['llama-3.1-70b (hosted)', 0.6, 0.6],
]

export default handlerFor(manifest, ({ text, expected_output_tokens = 0, calls = 1 }) => {
  const characters = [...text].length
  const words = split(text).length
  const byChars = characters / 4
  const byWords = (words * 4) / 3
  const estimate = Math.round((byChars + byWords) / 2)
  return {
    characters,
    words,
    tokens: estimate,
    estimate,
    by_characters: Math.round(byChars),
    by_words: Math.round(byWords),
    method: 'mean of characters/4 and words×4/3',
    projections: PRICES.map(([model, i, o]) => ({
      model,
      input_per_million_usd: i,
      output_per_million_usd: o,
      cost_usd: Math.round(((estimate * i + expected_output_tokens * o) / 1e6) * calls * 1e8) / 1e8,
    })),
    prices_as_of: PRICES_AS_OF,
  }
})
