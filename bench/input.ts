/**
 * Cost of reading a body the way agents write it (runtime/input: aliases, enum spelling, ignored-field list) as a
 * ratio to the plain validation it precedes. Run: `bun bench/input.ts`. Figures are ratios within one run.
 */
import { Value } from '@sinclair/typebox/value'
import { entries } from '../test/support/entries'
import { checker, prepareInputReport } from '../runtime/input/validate'

const CASES: Array<[string, Record<string, unknown>]> = [
  ['percentage-calc', { op: 'Percent-Of', from: 15, to: 200, note: 'x' }],
  ['sales-tax-vat-calculator', { amount: 100, region: 'California', mode: 'add' }],
  [
    'mock-data-generate',
    {
      fields: { id: 'id', n: { type: 'Integer', min: 1, max: 9 }, who: 'full name' },
      count: 10,
      seed: 1,
      format: 'JSON',
    },
  ],
  ['calendar-month', { year: 2024, month: 2, first_weekday: 'Monday' }],
]

function time(n: number, fn: () => void): number {
  for (let i = 0; i < 1000; i++) fn()
  const t = performance.now()
  for (let i = 0; i < n; i++) fn()
  return (performance.now() - t) / n
}

export function inputCost(n = 50_000): string[] {
  const rows = ['| service | plain default + check (µs) | with canonicalisation (µs) | ratio |', '|---|---|---|---|']
  for (const [slug, body] of CASES) {
    const schema = entries.find((e) => e.folder === slug)!.manifest.input
    const canonical = prepareInputReport(schema, body).input as Record<string, unknown>
    const c = checker(schema)
    // Interleaved rounds, median of each: the machine is shared, so only the ratio within one run means anything.
    const a: number[] = [],
      b: number[] = []
    for (let r = 0; r < 7; r++) {
      a.push(time(n / 7, () => void c.Check(Value.Default(schema, structuredClone(canonical)))))
      b.push(time(n / 7, () => void prepareInputReport(schema, body)))
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]
    const plain = median(a),
      full = median(b)
    rows.push(`| ${slug} | ${(plain * 1e3).toFixed(2)} | ${(full * 1e3).toFixed(2)} | ${(full / plain).toFixed(2)} |`)
  }
  return rows
}

if (import.meta.main) console.log(inputCost().join('\n'))
