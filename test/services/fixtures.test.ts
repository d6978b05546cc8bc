/**
 * The shared contract test: every service folder with a handler and a fixtures.json runs each fixture through
 * the one fixture runner (test/support/fixture-run.ts): the same input preparation as the HTTP route, scripted
 * model replies, a loopback web site and loopback upstreams when the fixture declares them. It then checks the
 * answer (known answers from independent sources, matched as a subset) and the declared output schema, or the
 * expected error status and code. The format is documented in services/README.md ("fixtures.json").
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { entries } from '../support/entries'
import { ServiceError, type TierName } from '../../runtime/sdk'
import { loadFixtures, modelProblems, schemaProblems, startFixtureServers, type Fixture } from '../support/fixture-run'
import { matchSubset } from '../support/match'

const servers = startFixtureServers()
afterAll(() => servers.close())

const withFixtures = entries.filter((e) => e.handler && loadFixtures(e.folder).length)

for (const entry of withFixtures) {
  describe(entry.folder, () => {
    test.each(loadFixtures(entry.folder).map((f) => [f.name, f] as const))('%s', async (_name, f: Fixture) => {
      const m = entry.manifest
      const tier: TierName = f.tier ?? (m.kind === 'tiered' ? 'standard' : (Object.keys(m.pricing)[0] as TierName))
      const run = await servers.run(entry, f)
      if (run.error !== undefined) {
        if (!f.expectError || !(run.error instanceof ServiceError)) throw run.error
        expect({ status: run.error.status, code: f.expectError.code ? (run.error.code as string) : undefined }).toEqual(
          { status: f.expectError.status, code: f.expectError.code },
        )
      } else {
        if (f.expectError)
          throw new Error(
            `expected error ${JSON.stringify(f.expectError)}, got ${JSON.stringify(run.out).slice(0, 300)}`,
          )
        expect(schemaProblems(entry, tier, run.out)).toEqual([])
        if (f.expect !== undefined) matchSubset(run.out, f.expect, f.tolerance ?? 0)
      }
      expect(modelProblems(f, run)).toEqual([])
    })
  })
}

test('every built service has fixtures', () => {
  const missing = entries.filter((e) => e.handler && !withFixtures.includes(e)).map((e) => e.folder)
  expect(missing).toEqual([])
})

test('model, web and live-data services each have at least one fixture that exercises their model or upstream', () => {
  const missing: string[] = []
  for (const e of withFixtures) {
    const fx = loadFixtures(e.folder)
    const needs = e.manifest.needs ?? []
    if (needs.includes('model') && !fx.some((f) => f.model && !f.expectError))
      missing.push(`${e.folder}: no successful fixture with scripted model replies`)
    if ((e.manifest.upstreams ?? []).length && !fx.some((f) => f.upstream && !f.expectError))
      missing.push(`${e.folder}: no successful fixture with a scripted upstream`)
    if (needs.includes('fetch') && !fx.some((f) => f.web && !f.expectError))
      missing.push(`${e.folder}: no successful fixture with a loopback web page`)
  }
  expect(missing).toEqual([])
})
