/** entity-extract stays linear on hostile inputs at its size cap (no regex backtracking blow-up). */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'
import { HOSTILE_TEXTS } from '../../test/support/large-inputs'

const svc = serviceRunner('entity-extract')
afterAll(svc.close)

test('linear on hostile inputs', async () => {
  for (const text of HOSTILE_TEXTS) {
    const t = performance.now()
    const run = await svc.run({ name: 'hostile', input: { text } })
    if (run.error) throw run.error
    expect({ input: text.slice(0, 12), slow: performance.now() - t > 2000 }).toEqual({
      input: text.slice(0, 12),
      slow: false,
    })
  }
}, 120_000)
