/** The third-party checker @agentcash/discovery (what x402scan-style crawlers run) against the live server. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { checkEndpointSchema, discoverOriginSchema } from '@agentcash/discovery'
import { startServer, type TestServer } from './support/server'

let s: TestServer
beforeAll(async () => {
  s = await startServer()
})
afterAll(() => s.stop())

test('discovery finds every paid route once, under /api/v1, with no error-severity warning', async () => {
  const d = (await discoverOriginSchema({ target: s.url })) as any
  expect(d.found ?? d.ok).toBe(true)
  const errors = (d.warnings ?? []).filter((w: any) => w.severity === 'error')
  expect(errors).toEqual([])
  const services = ((await (await fetch(s.url + '/services')).json()) as any).services
  const paths = new Set((d.endpoints ?? d.resources).map((r: any) => r.path))
  for (const svc of services) {
    expect(paths.has(`/api/v1/${svc.slug}`)).toBe(true)
    expect(paths.has(`/api/${svc.slug}`)).toBe(false)
  }
})

test('an endpoint check reports it as x402-paid at its price with its schemas', async () => {
  const c = (await checkEndpointSchema({ url: s.url + '/api/v1/slugify', probe: true })) as any
  expect(c.found).toBe(true)
  expect((c.warnings ?? []).filter((w: any) => w.severity === 'error')).toEqual([])
  const a = c.advisories.find((x: any) => x.method === 'POST')
  expect(a).toMatchObject({
    source: 'probe',
    authMode: 'paid',
    paymentOptions: [
      { protocol: 'x402', version: 2, network: 'eip155:8453', amount: '1000', scheme: 'exact', maxTimeoutSeconds: 60 },
    ],
  })
  expect(a.inputSchema.properties.text.type).toBe('string')
  const fromSpec = (await checkEndpointSchema({ url: s.url + '/api/v1/slugify' })) as any
  expect(fromSpec.advisories.find((x: any) => x.method === 'POST')).toMatchObject({
    authMode: 'paid',
    estimatedPrice: '0.001000 USD',
    protocols: ['x402'],
  })
})

test('`discovery discover` (the CLI sellers run) prints only the route-count advisory', async () => {
  const bin = require.resolve('@agentcash/discovery/package.json').replace(/package\.json$/, 'bin/discovery.js')
  const proc = Bun.spawn([process.execPath, bin, 'discover', s.url, '--json'], { stdout: 'pipe', stderr: 'pipe' })
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  expect(code).toBe(0)
  const report = JSON.parse(out)
  const services = ((await (await fetch(s.url + '/services')).json()) as any).services as any[]
  const openapi = (await (await fetch(s.url + '/openapi.json')).json()) as any
  const operations = Object.values(openapi.paths).flatMap((p: any) => Object.keys(p)).length
  expect(report.resources.length).toBe(operations)
  expect(report.resources.filter((r: any) => r.path.startsWith('/api/v1/')).length).toBe(services.length)
  // @agentcash/discovery 1.7.5 flags any spec with more than 40 operations (a fixed token-budget heuristic);
  // with one operation per paid service that advisory is inherent to a ~113-service catalog. Nothing else.
  expect(report.warnings.map((w: any) => w.code)).toEqual(['L2_ROUTE_COUNT_HIGH'])
  expect(report.warnings[0].message).toContain(`(${operations})`)
}, 120_000)
