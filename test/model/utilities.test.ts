/**
 * The contract of every model-backed utility, for each service found in the registry (no list to edit): its first
 * successful fixture with scripted model replies (services/<slug>/fixtures.json) is run again and the request the
 * provider received is checked. Service-specific behaviour lives in each folder's fixtures.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { entries } from '../support/entries'
import { loadFixtures, startFixtureServers } from '../support/fixture-run'
import { texts } from '../support/fake-openai'

const servers = startFixtureServers()
afterAll(() => servers.close())

const utilities = entries.filter(
  (e) => e.handler && e.manifest.kind === 'utility' && e.manifest.needs?.includes('model'),
)

test('the model utilities are found', () => {
  expect(utilities.length).toBeGreaterThanOrEqual(15)
})

describe('model utilities', () => {
  for (const e of utilities) {
    test(`${e.folder}: one structured call with the manifest's model, data only in the user message, usage reported`, async () => {
      const f = loadFixtures(e.folder).find((x) => x.model && x.model.length === 1 && !x.expectError && x.marker)
      if (!f) throw new Error(`${e.folder}: add a fixture with one scripted model reply and a marker`)
      const run = await servers.run(e, f)
      if (run.error) throw run.error
      expect(run.modelRequests).toHaveLength(1)
      const body = run.modelRequests[0]!
      expect(body.model).toBe(e.manifest.model)
      expect(body.max_tokens).toBeGreaterThan(0)
      expect(body.response_format?.type).toBe('json_schema')
      const { system, user } = texts(body)
      expect(system).not.toContain(f.marker!)
      expect(user).toContain(f.marker!)
      const reply = f.model![0] as { tokens?: number }
      expect(run.out).toMatchObject({ model: `${e.manifest.model}-2025-fake`, tokens_used: reply.tokens ?? 137 })
    })
  }
})
