/** The third-party checker @agentcash/discovery (what x402scan-style crawlers run) against the live server. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { checkEndpointSchema, discoverOriginSchema } from '@agentcash/discovery'
import { startServer, type TestServer } from '../support/server'

let s: TestServer
beforeAll(async () => {
  s = await startServer()
})
afterAll(() => s.stop())

test('discovery finds every paid service behind one templated route, with no warning', async () => {
  const d = (await discoverOriginSchema({ target: s.url })) as any
  expect(d.found ?? d.ok).toBe(true)
  expect(d.warnings ?? []).toEqual([])
  const services = ((await (await fetch(s.url + '/services')).json()) as any).services as any[]
  const paid = (d.endpoints ?? d.resources).filter((r: any) => r.authMode === 'paid')
  expect(paid.map((r: any) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/{slug}'])
  const agentDoc = (await (await fetch(s.url + '/openapi.json')).json()) as any
  const slugParam = agentDoc.paths['/api/v1/{slug}'].post.parameters.find((p: any) => p.name === 'slug')
  expect(slugParam.schema.enum).toEqual(services.map((x) => x.slug))
  // The bounded price covers every service's every tier, so an agent can pre-authorize safely.
  const prices = services.flatMap((x) => Object.values(x.pricing).map((p: any) => Number(p.price_usd)))
  const { min, max } = agentDoc.paths['/api/v1/{slug}'].post['x-payment-info'].price
  expect(Number(min)).toBe(Math.min(...prices))
  expect(Number(max)).toBe(Math.max(...prices))
  // The full reference keeps one operation per service, under /api/v1 only.
  const full = (await (await fetch(s.url + '/openapi/full.json')).json()) as any
  for (const svc of services) {
    expect(full.paths[`/api/v1/${svc.slug}`].post['x-payment-info']).toBeDefined()
    expect(full.paths[`/api/${svc.slug}`]).toBeUndefined()
  }
})

test('an endpoint check reports it as x402-paid and MPP-paid at its price with its schemas', async () => {
  const c = (await checkEndpointSchema({ url: s.url + '/api/v1/slugify', probe: true })) as any
  expect(c.found).toBe(true)
  expect((c.warnings ?? []).filter((w: any) => w.severity === 'error')).toEqual([])
  const a = c.advisories.find((x: any) => x.method === 'POST')
  expect(a).toMatchObject({
    source: 'probe',
    authMode: 'paid',
    paymentOptions: [
      { protocol: 'x402', version: 2, network: 'eip155:8453', amount: '1000', scheme: 'exact', maxTimeoutSeconds: 60 },
      // MPP's challenge on the same 402 (WWW-Authenticate: Payment), read by the checker as an MPP option.
      { protocol: 'mpp', paymentMethod: 'evm', intent: 'charge', amount: '1000' },
    ],
  })
  expect(a.inputSchema.properties.text.type).toBe('string')
  // Without a probe, the checker matches the templated operation of the compact document: paid, price bounded.
  const fromSpec = (await checkEndpointSchema({ url: s.url + '/api/v1/slugify' })) as any
  expect(fromSpec.advisories.find((x: any) => x.method === 'POST')).toMatchObject({
    authMode: 'paid',
    estimatedPrice: '0.001000-3.000000 USD',
    protocols: ['x402', 'mpp'],
  })
})

test("every service's 402 header passes the checker's probe: its input schema found, no warning", async () => {
  // The header carries a smaller Bazaar form when the full one would not fit its budget (docs/api.md): the checker
  // still finds the body's schema (extensions.bazaar.schema.properties.input.properties.body) and the output's.
  const available = s.booted.services.filter((x) => x.available)
  expect(available.length).toBeGreaterThan(50)
  for (const svc of available) {
    const c = (await checkEndpointSchema({ url: `${s.url}/api/v1/${svc.slug}`, probe: true })) as any
    expect([svc.slug, (c.warnings ?? []).filter((w: any) => w.severity !== 'info')]).toEqual([svc.slug, []])
    const a = c.advisories.find((x: any) => x.method === 'POST')
    expect([svc.slug, a.authMode, typeof a.inputSchema, typeof a.outputSchema]).toEqual([
      svc.slug,
      'paid',
      'object',
      'object',
    ])
  }
})

test('`discovery discover` (the CLI sellers run) prints no warning at all', async () => {
  const bin = require.resolve('@agentcash/discovery/package.json').replace(/package\.json$/, 'bin/discovery.js')
  const proc = Bun.spawn([process.execPath, bin, 'discover', s.url, '--json'], { stdout: 'pipe', stderr: 'pipe' })
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  expect(code).toBe(0)
  const report = JSON.parse(out)
  const openapi = (await (await fetch(s.url + '/openapi.json')).json()) as any
  const operations = Object.values(openapi.paths).flatMap((p: any) => Object.keys(p)).length
  expect(report.resources.length).toBe(operations)
  expect(operations).toBeLessThanOrEqual(40) // the profile's first-pass token budget (ROUTE_COUNT_HIGH)
  expect(report.warnings).toEqual([])
  expect(report.meta.guidanceTokens).toBeGreaterThan(0)
}, 120_000)
