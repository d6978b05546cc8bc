import { handlerFor, invalid } from '../../runtime/sdk'
import { MAX_ANSWER_CHARS, answerTooLarge, assertDepth, jsonLength } from '../_lib/data-format-json'
import { evaluate, parsePath } from './lib'
import manifest from './manifest'

const MAX_MATCHES = 10_000

export default handlerFor(manifest, ({ data, paths }) => {
  if (data === undefined) throw invalid('data', 'is required (any JSON value)')
  assertDepth(data, 'data')
  const parsed = paths.map((p, i) => parsePath(p, `paths/${i}`))
  const budget = { visits: 0 }
  const sizes = new WeakMap<object, number>()
  let chars = 0
  const results = parsed.map((steps, i) => {
    const { nodes, truncated } = evaluate(data, steps, MAX_MATCHES, `paths/${i}`, budget)
    // Each match is answered twice or so (values, matches, the first one as value): stop before a huge answer.
    for (const n of [nodes[0], ...nodes])
      if (n && (chars += jsonLength(n.value, sizes) + n.path.length + 4) > MAX_ANSWER_CHARS)
        throw answerTooLarge(`paths/${i}`, 'use fewer or more specific paths (each match holds its whole value)')
    return {
      path: paths[i],
      found: nodes.length > 0,
      count: nodes.length,
      value: nodes[0]?.value ?? null,
      values: nodes.map((n) => n.value),
      matches: nodes.map((n) => n.path),
      truncated,
    }
  })
  return {
    results,
    found_count: results.filter((r) => r.found).length,
    missing: results.filter((r) => !r.found).map((r) => r.path),
  }
})
