/**
 * The contract of every tiered (model) service, for each one found in the registry (no list to edit): its first
 * successful fixture with one scripted model reply and a marker (services/<slug>/fixtures.json) is run at every
 * tier and the provider's request is checked. Service-specific behaviour lives in each folder (fixtures.json and
 * services/<slug>/*.test.ts).
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { entries } from '../support/entries'
import { TIERS } from '../../runtime/sdk'
import { texts } from '../support/fake-openai'
import { loadFixtures, startFixtureServers, type Fixture } from '../support/fixture-run'

const servers = startFixtureServers()
afterAll(() => servers.close())

const tiered = entries.filter((e) => e.handler && e.manifest.kind === 'tiered')

test('the tiered services are found', () => {
  expect(tiered.length).toBeGreaterThanOrEqual(10)
})

for (const e of tiered) {
  const m = e.manifest
  const good = (): Fixture => {
    const f = loadFixtures(e.folder).find((x) => x.model?.length === 1 && !x.expectError && x.marker)
    if (!f) throw new Error(`${e.folder}: add a fixture with one scripted model reply and a marker`)
    return f
  }

  describe(e.folder, () => {
    test('manifest: tiered, needs the model, one concrete model label', () => {
      expect(m.needs).toContain('model')
      expect(m.model).toMatch(/^gpt-4\.1(-mini)?$/)
    })

    test.each(TIERS)(
      '%s tier: model, budget, fixed system prompt, data only in the user message, usage',
      async (tier) => {
        const f = {
          ...good(),
          tier,
          model: [{ ...good().model![0], tokens: 400 + TIERS.indexOf(tier) }] as Fixture['model'],
        }
        const run = await servers.run(e, f)
        if (run.error) throw run.error
        expect(run.modelRequests).toHaveLength(1)
        const body = run.modelRequests[0]!
        expect(body.model).toBe(m.model)
        expect(body.max_tokens).toBe(m.pricing[tier]!.max_tokens)
        const { system, user } = texts(body)
        expect(system).not.toContain(f.marker!)
        expect(system).toContain(`Tier: ${tier}.`)
        expect(user).toContain(f.marker!)
        expect(user).toStartWith('<<<DATA')
        const out = run.out as { tokens_used: number; model: string; result: string }
        expect(out.tokens_used).toBe(400 + TIERS.indexOf(tier))
        expect(out.model).toBe(`${m.model}-2025-fake`)
        expect(typeof out.result).toBe('string')
        expect(out.result.length).toBeGreaterThan(0)
      },
    )

    test('system prompts differ per tier and never change the model', async () => {
      const systems = new Set<string>()
      const models = new Set<string>()
      for (const tier of TIERS) {
        const run = await servers.run(e, { ...good(), tier })
        if (run.error) throw run.error
        systems.add(texts(run.modelRequests[0]!).system)
        models.add(run.modelRequests[0]!.model)
      }
      expect(systems.size).toBe(3)
      expect(models).toEqual(new Set([m.model]))
    })

    // A service whose input is a URL (analyze-image) has no text budget to exceed.
    if (!JSON.stringify(good().input).includes('{{web}}')) {
      test('input over the tier budget is a 413 before any model call', async () => {
        const code = 'x'.repeat(m.pricing.quick!.max_tokens * 8 + 1)
        const run = await servers.run(e, { name: 'over budget', input: { code, tier: 'quick' }, tier: 'quick' })
        expect(run.error).toMatchObject({ status: 413, code: 'INPUT_TOO_LARGE' })
      })
    }
  })
}
