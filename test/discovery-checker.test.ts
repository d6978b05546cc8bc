/** The third-party checker @agentcash/discovery (what x402scan-style crawlers run) against the live server. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { checkEndpointSchema, discoverOriginSchema } from '@agentcash/discovery'
import { startServer, type TestServer } from './support/server'

let s: TestServer
beforeAll(async () => { s = await startServer() })
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
  expect(a).toMatchObject({ source: 'probe', authMode: 'paid', paymentOptions: [{ protocol: 'x402', version: 2, network: 'eip155:8453', amount: '1000', scheme: 'exact', maxTimeoutSeconds: 60 }] })
  expect(a.inputSchema.properties.text.type).toBe('string')
  const fromSpec = (await checkEndpointSchema({ url: s.url + '/api/v1/slugify' })) as any
  expect(fromSpec.advisories.find((x: any) => x.method === 'POST')).toMatchObject({ authMode: 'paid', estimatedPrice: '0.001000 USD', protocols: ['x402'] })
})
