import { handlerFor } from '../../runtime/sdk'
import { STOPWORDS } from '../_lib/text'
import manifest from './manifest'

function top(counts: Map<string, number>, n: number, total: number) {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([term, count]) => ({ term, count, frequency: total ? Math.round((count / total) * 1e6) / 1e6 : 0 }))
}

export default handlerFor(manifest, ({ text, top_n = 10 }) => {
  const single = new Map<string, number>()
  const pairs = new Map<string, number>()
  let total = 0,
    kept = 0
  for (const segment of text.toLowerCase().split(/[.!?;:]+/u)) {
    let prev: string | null = null
    for (const tok of segment.match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []) {
      total++
      if (STOPWORDS.has(tok) || [...tok].length < 2) {
        prev = null
        continue
      }
      kept++
      single.set(tok, (single.get(tok) ?? 0) + 1)
      if (prev) pairs.set(`${prev} ${tok}`, (pairs.get(`${prev} ${tok}`) ?? 0) + 1)
      prev = tok
    }
  }
  return {
    total_tokens: total,
    kept_tokens: kept,
    keywords: top(single, top_n, kept),
    phrases: top(pairs, top_n, kept),
  }
})
