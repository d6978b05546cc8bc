/**
 * Schema-driven fuzzing of every built service's handler, through the same input preparation as the HTTP route:
 * every case ends in a valid output or a 4xx ServiceError (never a 5xx, a plain Error or a hang), prototypes are
 * never polluted, and memory stays bounded.
 */
import { expect, test } from 'bun:test'
import { entries } from '../support/entries'
import { prepareInput, issues } from '../../runtime/input/validate'
import { ServiceError, testContext } from '../../runtime/sdk'
import { jsonSchema } from '../../runtime/catalog/index'
import { mutations, sample } from '../support/fuzz-cases'

const CASE_TIMEOUT_MS = 3000
const built = entries.filter((e) => e.handler && !e.manifest.needs?.length)

test(`fuzz ${built.length} deterministic services`, async () => {
  const failures: string[] = []
  let cases = 0
  const rss0 = process.memoryUsage().rss
  for (const e of built) {
    const schema = jsonSchema(e.manifest.input) as never
    const base = (e.manifest.examples[0]?.input ?? sample(schema)) as Record<string, unknown>
    for (const [name, body] of mutations(schema, base)) {
      cases++
      const label = `${e.folder} / ${name}`
      try {
        const input = prepareInput(e.manifest.input, body)
        const out = await Promise.race([
          Promise.resolve().then(() =>
            e.handler!(
              input as never,
              testContext({ service: e.folder, tier: Object.keys(e.manifest.pricing)[0] as 'flat' }),
            ),
          ),
          Bun.sleep(CASE_TIMEOUT_MS).then(() => {
            throw new Error(`no answer within ${CASE_TIMEOUT_MS} ms`)
          }),
        ])
        const bad = issues(e.manifest.output, out)
        if (bad.length) failures.push(`${label}: output does not match its schema at ${bad[0].path}: ${bad[0].message}`)
      } catch (err) {
        if (!(err instanceof ServiceError)) failures.push(`${label}: threw ${(err as Error)?.message ?? err}`)
        else if (err.status >= 500) failures.push(`${label}: ${err.status} ${err.code}`)
      }
      if (({} as Record<string, unknown>).polluted !== undefined) failures.push(`${label}: Object.prototype polluted`)
    }
  }
  const grownMb = (process.memoryUsage().rss - rss0) / 1e6
  console.log(`fuzz: ${cases} cases over ${built.length} services, RSS +${grownMb.toFixed(0)} MB`)
  expect(failures.slice(0, 40)).toEqual([])
  expect(grownMb).toBeLessThan(1500)
}, 600_000)
