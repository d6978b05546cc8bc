import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

/** Sum with Neumaier compensation (closer to Python's fsum-based statistics). */
function sum(xs: number[]): number {
  let s = 0,
    c = 0
  for (const x of xs) {
    const t = s + x
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s
    s = t
  }
  return s + c
}

/** statistics.quantiles(sorted, n=4, method=...) of Python 3.11. */
function quartiles(sorted: number[], method: 'exclusive' | 'inclusive'): [number, number, number] | null {
  const n = sorted.length
  if (n < 2) return null
  if (method === 'inclusive') {
    const m = n - 1
    return [1, 2, 3].map((j) => {
      const i = Math.floor((j * m) / 4),
        delta = (j * m) % 4
      return (sorted[i] * (4 - delta) + sorted[Math.min(n - 1, i + 1)] * delta) / 4
    }) as [number, number, number]
  }
  const m = n + 1
  return [1, 2, 3].map((j) => {
    const i = Math.floor((j * m) / 4),
      delta = (j * m) % 4
    const lo = sorted[Math.max(0, Math.min(n - 1, i - 1))],
      hi = sorted[Math.max(0, Math.min(n - 1, i))]
    return (lo * (4 - delta) + hi * delta) / 4
  }) as [number, number, number]
}

export default handlerFor(manifest, ({ data, data2, quartile_method = 'exclusive' }) => {
  const n = data.length
  const sorted = [...data].sort((a, b) => a - b)
  const mean = sum(data) / n
  const ss = sum(data.map((x) => (x - mean) ** 2))
  const varS = n > 1 ? ss / (n - 1) : null
  const counts = new Map<number, number>()
  for (const x of data) counts.set(x, (counts.get(x) ?? 0) + 1)
  const top = Math.max(...counts.values())
  const q = quartiles(sorted, quartile_method)
  const sd = varS === null ? null : Math.sqrt(varS)
  const skew = n > 2 && sd ? (n / ((n - 1) * (n - 2))) * sum(data.map((x) => ((x - mean) / sd) ** 3)) : null
  const out = {
    count: n,
    sum: sum(data),
    mean,
    median: n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    modes: [...counts].filter(([, c]) => c === top).map(([v]) => v),
    min: sorted[0],
    max: sorted[n - 1],
    range: sorted[n - 1] - sorted[0],
    variance_sample: varS,
    stdev_sample: sd,
    variance_population: ss / n,
    stdev_population: Math.sqrt(ss / n),
    quartile_method,
    quartiles: q,
    iqr: q ? q[2] - q[0] : null,
    skewness: skew,
  }
  if (!data2) return out
  if (data2.length !== n) throw invalid('data2', `must have the same length as data (${n})`)
  const my = sum(data2) / n
  const sxy = sum(data.map((x, i) => (x - mean) * (data2[i] - my)))
  const syy = sum(data2.map((y) => (y - my) ** 2))
  const correlation = ss === 0 || syy === 0 ? null : sxy / Math.sqrt(ss * syy)
  const slope = ss === 0 ? null : sxy / ss
  return {
    ...out,
    correlation,
    regression:
      slope === null
        ? null
        : { slope, intercept: my - slope * mean, r_squared: correlation === null ? 0 : correlation ** 2 },
  }
})
