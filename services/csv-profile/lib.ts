/** Column statistics for csv-profile. */
const INT = /^-?(?:0|[1-9]\d*)$/
const NUM = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/
const BOOL = /^(?:true|false)$/i
const DATE =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/

export type ColumnType = 'integer' | 'number' | 'boolean' | 'date' | 'string' | 'empty'

export function inferType(values: string[]): ColumnType {
  if (values.length === 0) return 'empty'
  if (values.every((v) => INT.test(v))) return 'integer'
  if (values.every((v) => NUM.test(v) && Number.isFinite(Number(v)))) return 'number'
  if (values.every((v) => BOOL.test(v))) return 'boolean'
  if (values.every((v) => DATE.test(v))) return 'date'
  return 'string'
}

/** Sum with Neumaier compensation (closer to Python's exact statistics). */
function fsum(xs: number[]): number {
  let s = 0
  let c = 0
  for (const x of xs) {
    const t = s + x
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s
    s = t
  }
  return s + c
}

export function numericStats(values: string[]) {
  const xs = values.map(Number)
  const n = xs.length
  const sorted = [...xs].sort((a, b) => a - b)
  const sum = fsum(xs)
  const mean = sum / n
  const median = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  const stddev = n < 2 ? null : Math.sqrt(fsum(xs.map((x) => (x - mean) ** 2)) / (n - 1))
  return { min: sorted[0], max: sorted[n - 1], sum, mean, median, stddev }
}

/** Counts in order of first appearance. */
export function counts(values: string[]): Map<string, number> {
  const m = new Map<string, number>()
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1)
  return m
}

export const charLength = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}
