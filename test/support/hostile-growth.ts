/**
 * The one declaration of "linear on hostile inputs" tests for the data and encoding services (issue #24), for their
 * own services/<slug>/hostile.test.ts: each case builds an input of size n that was superlinear before (quadratic
 * parsers, answers that multiply the input), and `expectLinearGrowth` doubles it. Every run must end as the case
 * says: answered, or refused with a 422 of the given code (never a 500 or another error). A missed bound is
 * measured again, twice at most (a busy machine, not a quadratic path, misses it once).
 */
import { afterAll, expect, test } from 'bun:test'
import { ServiceError } from '../../runtime/sdk'
import { serviceRunner } from './fixture-run'
import { expectLinearGrowth } from './growth'

export interface HostileCase {
  /** What the input attacks, e.g. "90,000 distinct YAML keys". */
  name: string
  /** The input at size n (built once per size, outside the timing). */
  input: (n: number) => Record<string, unknown>
  /** The smaller size; 2n should be near the service's input cap. */
  n: number
  /** The error code of the 422 both sizes must get; absent when both must be answered. */
  refused?: string
  /** Runs at each size (default 5; fewer for cases that take seconds). */
  reps?: number
}

const outcome = (error: unknown): string =>
  error === undefined
    ? 'answered'
    : error instanceof ServiceError
      ? `${error.status} ${error.code}`
      : `thrown: ${String(error).slice(0, 200)}`

/** Declares one test per case: the outcome holds at both sizes and doubling the input at most triples the time. */
export function growsLinearly(slug: string, cases: HostileCase[]): void {
  const svc = serviceRunner(slug)
  afterAll(svc.close)
  for (const c of cases) {
    test(`linear on hostile input: ${c.name}`, async () => {
      const inputs = new Map<number, Record<string, unknown>>()
      const seen = new Set<string>()
      const run = async (n: number) => {
        if (!inputs.has(n)) inputs.set(n, c.input(n))
        const r = await svc.run({ name: c.name, input: inputs.get(n) })
        seen.add(outcome(r.error))
      }
      // A busy shared machine sometimes slows one size's runs for seconds: a bound missed is measured again, twice
      // at most. A quadratic path misses it every time (and the paths fixed here took minutes before).
      for (let attempt = 1; ; attempt++) {
        try {
          await expectLinearGrowth(`${slug}: ${c.name}`, run, c.n, { reps: c.reps ?? 5 })
          break
        } catch (e) {
          if (attempt === 3) throw e
        }
      }
      expect([...seen]).toEqual([c.refused ? `422 ${c.refused}` : 'answered'])
    }, 180_000)
  }
}
