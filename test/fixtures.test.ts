/**
 * The shared contract test: every service folder with a handler and a fixtures.json runs each fixture through
 * the same input preparation as the HTTP route, then checks the answer (known answers from independent sources)
 * and that it matches the declared output schema. A fixture may instead expect an error status and code.
 *
 * fixtures.json: [{ name, source?, input, expect?, expectError?: {status, code?}, tolerance?, now? }]
 * - `expect` is matched as a subset: every key given must match; arrays must have the same length.
 * - `tolerance` (absolute) applies to every number in `expect`.
 * - `now` (ISO string) fixes ctx.now() for date-dependent services.
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { entries } from '../runtime/registry.gen'
import { prepareInput, issues } from '../runtime/validate'
import { ServiceError, testContext } from '../runtime/sdk'
import { matchSubset } from './support/match'

interface Fixture {
  name: string
  source?: string
  input: unknown
  expect?: unknown
  expectError?: { status: number; code?: string }
  tolerance?: number
  now?: string
}

const withFixtures = entries.filter((e) => e.handler && existsSync(join(import.meta.dir, '..', 'services', e.folder, 'fixtures.json')))

for (const entry of withFixtures) {
  const fixtures: Fixture[] = JSON.parse(readFileSync(join(import.meta.dir, '..', 'services', entry.folder, 'fixtures.json'), 'utf8'))
  describe(entry.folder, () => {
    test.each(fixtures.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
      const m = entry.manifest
      const tier = m.kind === 'tiered' ? 'standard' : (Object.keys(m.pricing)[0] as 'flat')
      const ctx = testContext({ service: m.slug, tier, now: f.now ? () => new Date(f.now!) : () => new Date() })
      let out: unknown
      try {
        out = await entry.handler!(prepareInput(m.input, f.input) as never, ctx)
      } catch (e) {
        if (!f.expectError || !(e instanceof ServiceError)) throw e
        expect({ status: e.status, code: f.expectError.code ? (e.code as string) : undefined }).toEqual({ status: f.expectError.status, code: f.expectError.code })
        return
      }
      if (f.expectError) throw new Error(`expected error ${JSON.stringify(f.expectError)}, got ${JSON.stringify(out).slice(0, 300)}`)
      expect(issues(m.output, out)).toEqual([])
      if (f.expect !== undefined) matchSubset(out, f.expect, f.tolerance ?? 0)
    })
  })
}

test('every built utility has fixtures', () => {
  const missing = entries.filter((e) => e.handler && e.manifest.kind === 'utility' && !e.manifest.needs?.includes('model') && !withFixtures.includes(e)).map((e) => e.folder)
  expect(missing).toEqual([])
})
