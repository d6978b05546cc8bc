import { handlerFor, invalid } from '../../runtime/sdk'
import { assertDepth } from '../_lib/data-format-json'
import { evaluate, parsePath } from './lib'
import manifest from './manifest'

const MAX_MATCHES = 10_000

export default handlerFor(manifest, ({ data, paths }) => {
  if (data === undefined) throw invalid('data', 'is required (any JSON value)')
  assertDepth(data, 'data')
  const parsed = paths.map((p, i) => parsePath(p, `paths/${i}`))
  const results = parsed.map((steps, i) => {
    const { nodes, truncated } = evaluate(data, steps, MAX_MATCHES, `paths/${i}`)
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
