import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { decodeB64Json, startApp, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'

/**
 * Slug -> prices from the spec's tables (sections 4.3 and 4.4), kept in the repository as data
 * (test/data/spec-services.json) so the suite needs nothing beside the clone; independent of the manifests.
 */
function specPrices(): Map<string, Record<string, number>> {
  const { services } = JSON.parse(readFileSync(join(import.meta.dir, '..', 'data', 'spec-services.json'), 'utf8')) as {
    services: Array<{ slug: string; prices: Record<string, number> }>
  }
  const out = new Map(services.map((x) => [x.slug, x.prices]))
  out.set('ical-generate', { flat: 0.003 })
  return out
}

let s: TestServer
beforeAll(async () => {
  s = await startApp({ entries: withEcho() })
})
afterAll(() => s.stop())

const getJson = async (path: string) => (await s.fetch(path)).json() as Promise<any>

describe('every spec slug is registered at its exact price', () => {
  test('prices match the spec tables', async () => {
    const services = (await getJson('/services')).services as any[]
    const bySlug = new Map(services.map((x) => [x.slug, x]))
    const expected = specPrices()
    expect(expected.size).toBeGreaterThan(100)
    const wrong: string[] = []
    for (const [slug, prices] of expected) {
      const got = bySlug.get(slug)
      if (!got) {
        wrong.push(`${slug}: missing`)
        continue
      }
      for (const [tier, price] of Object.entries(prices))
        if (got.pricing[tier]?.price_usd !== price)
          wrong.push(`${slug}.${tier}: ${got.pricing[tier]?.price_usd} != ${price}`)
    }
    expect(wrong).toEqual([])
    for (const extra of [
      'regex-from-text',
      'cron-from-text',
      'commit-message',
      'explain-regex',
      'summarize-url',
      'eli5',
      'verify',
    ])
      expect(bySlug.has(extra)).toBe(true)
  })
})

describe('all surfaces agree on every slug, path and price', () => {
  test('services, well-known, discovery, openapi and the live 402', async () => {
    const services = (await getJson('/services')).services as any[]
    const wk = await getJson('/.well-known/x402')
    const wk2 = await getJson('/.well-known/x402.json')
    expect(wk2).toEqual(wk)
    const disc = await getJson(`/discovery/resources?limit=100&offset=0`)
    const disc2 = await getJson(`/discovery/resources?limit=100&offset=100`)
    const items = [...disc.items, ...disc2.items]
    expect(disc.pagination.total).toBe(services.length)
    const openapi = await getJson('/openapi/full.json')
    expect(wk.resources.length).toBe(services.length)
    for (const svc of services) {
      const w = wk.resources.find((r: any) => r.endpoint === `/api/v1/${svc.slug}`)
      expect(w.pricing).toEqual(svc.pricing)
      expect(w.method).toBe('POST')
      expect(w.payment).toEqual({ scheme: 'exact', payTo: wk.payTo, asset: wk.asset, network: 'eip155:8453' })
      const d = items.find((i: any) => i.resource.endsWith(`/api/v1/${svc.slug}`))
      const tiers = Object.keys(svc.pricing)
      expect(d.accepts.map((a: any) => a.amount)).toEqual(
        tiers.map((t) => String(Math.round(svc.pricing[t].price_usd * 1e6))),
      )
      // OpenAPI documents each operation once, under /api/v1 (the /api alias is described in info.description).
      expect(openapi.paths[`/api/${svc.slug}`]).toBeUndefined()
      const op = openapi.paths[`/api/v1/${svc.slug}`].post
      expect(op['x-payment-info'].protocols[0]).toHaveProperty('x402')
      expect(op.responses['402']).toBeDefined()
      const price = op['x-payment-info'].price
      if (tiers.length === 1) expect(Number(price.amount)).toBe(svc.pricing[tiers[0]].price_usd)
      else
        expect([Number(price.min), Number(price.max)]).toEqual([svc.pricing.quick.price_usd, svc.pricing.pro.price_usd])
      expect(svc.endpoints.map((e: any) => e.path).sort()).toEqual([`/api/${svc.slug}`, `/api/v1/${svc.slug}`].sort())
    }
  })

  test('the live 402 of every available service matches its published price', async () => {
    const services = ((await getJson('/services')).services as any[]).filter((x) => x.available)
    expect(services.length).toBeGreaterThan(0)
    for (const svc of services) {
      for (const [tier, p] of Object.entries(svc.pricing) as [string, any][]) {
        const q = svc.kind === 'tiered' ? `?tier=${tier}` : ''
        for (const path of [`/api/v1/${svc.slug}`, `/api/${svc.slug}`]) {
          const r = await s.post(path + q, '')
          expect(r.status).toBe(402)
          const pr = decodeB64Json(r.headers.get('payment-required'))
          expect(pr.accepts[0].amount).toBe(String(Math.round(p.price_usd * 1e6)))
          const body = (await r.json()) as any
          expect(body.price).toBe(String(p.price_usd))
          expect(body.accepts[0].maxAmountRequired).toBe(pr.accepts[0].amount)
        }
      }
    }
  })
})

describe('adding a folder publishes a service everywhere', () => {
  test('an extra registered service shows in every surface and answers 402', async () => {
    expect(
      (await getJson('/services')).services.some(
        (x: any) => x.slug === 'test-echo' && x.pricing.flat.price_usd === 0.0042,
      ),
    ).toBe(true)
    expect((await getJson('/.well-known/x402')).resources.some((x: any) => x.endpoint === '/api/v1/test-echo')).toBe(
      true,
    )
    const all = await getJson('/discovery/resources?limit=100&offset=100')
    expect(all.items.some((x: any) => x.resource.endsWith('/api/v1/test-echo') && x.accepts[0].amount === '4200')).toBe(
      true,
    )
    const openapi = await getJson('/openapi/full.json')
    expect(openapi.paths['/api/v1/test-echo'].post['x-payment-info'].price).toEqual({
      mode: 'fixed',
      currency: 'USD',
      amount: '0.004200',
    })
    const r = await s.post('/api/test-echo', {})
    expect(r.status).toBe(402)
    expect(decodeB64Json(r.headers.get('payment-required')).accepts[0].amount).toBe('4200')
  })
})

describe('the 402 challenge', () => {
  test('header, body, bazaar extension, cache and CORS', async () => {
    const r = await s.post('/api/v1/slugify', {})
    expect(r.status).toBe(402)
    expect(r.headers.get('cache-control')).toBe('no-store')
    expect(r.headers.get('access-control-expose-headers')).toContain('PAYMENT-REQUIRED')
    expect(r.headers.get('access-control-expose-headers')).toContain('X-PAYMENT-RESPONSE')
    const pr = decodeB64Json(r.headers.get('payment-required'))
    expect(pr).toMatchObject({
      x402Version: 2,
      resource: { url: 'http://localhost:3402/api/v1/slugify', mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:8453',
          amount: '1000',
          asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
          maxTimeoutSeconds: 60,
          extra: { name: 'USD Coin', version: '2' },
        },
      ],
    })
    expect(pr.extensions.bazaar.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json' })
    expect(pr.extensions.bazaar.schema.$schema).toContain('2020-12')
    const body = (await r.json()) as any
    expect(body).toMatchObject({
      error: 'Payment Required',
      price: '0.001',
      currency: 'USDC',
      network: 'eip155:8453',
      wallet: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      paymentMethods: ['x402'],
      x402: { x402Version: 2, scheme: 'exact', mimeType: 'application/json' },
      x402Version: 1,
    })
    expect(body.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: '1000',
      resource: 'http://localhost:3402/api/v1/slugify',
      mimeType: 'application/json',
      payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
    })
  })

  test('answered from bytes built once: the same headers and body each time, each with its own request id', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => s.post('/api/v1/test-explain?tier=quick', {})))
    expect(answers.map((r) => r.status)).toEqual([402, 402, 402])
    const heads = answers.map((r) =>
      [...r.headers].filter(([k]) => !['x-request-id', 'date', 'www-authenticate'].includes(k)),
    )
    expect(heads[1]).toEqual(heads[0])
    // MPP's challenge is fresh in each 402 (its id binds a nonce of its own: one challenge pays once).
    const mpp = answers.map((r) => r.headers.get('www-authenticate'))
    expect(new Set(mpp).size).toBe(3)
    for (const m of mpp) expect(m).toStartWith('Payment id="')
    expect(heads[2]).toEqual(heads[0])
    const bodies = await Promise.all(answers.map((r) => r.text()))
    expect(new Set(bodies).size).toBe(1)
    expect(new Set(answers.map((r) => r.headers.get('x-request-id'))).size).toBe(3)
    // another tier of the same service is another 402
    const pro = decodeB64Json((await s.post('/api/v1/test-explain?tier=pro', {})).headers.get('payment-required'))
    const quick = decodeB64Json(answers[0].headers.get('payment-required'))
    expect(BigInt(pro.accepts[0].amount)).toBeGreaterThan(BigInt(quick.accepts[0].amount))
  })

  test('preflight allows the payment headers', async () => {
    const r = await s.fetch('/api/v1/slugify', { method: 'OPTIONS' })
    expect(r.status).toBe(204)
    for (const h of ['PAYMENT-SIGNATURE', 'X-PAYMENT', 'Access-Control-Expose-Headers', 'Content-Type'])
      expect(r.headers.get('access-control-allow-headers')).toContain(h)
  })

  test('amounts are exact integers for sub-cent and multi-dollar prices', async () => {
    const r = await s.post('/api/v1/mcp-blueprint?tier=pro', {})
    const services = (await getJson('/services')).services as any[]
    const mcp = services.find((x) => x.slug === 'mcp-blueprint')
    if (mcp.available) expect(decodeB64Json(r.headers.get('payment-required')).accepts[0].amount).toBe('3000000')
    const { usdToAtomic } = await import('../../runtime/catalog/amount')
    expect([usdToAtomic(0.005), usdToAtomic(0.0042), usdToAtomic(2.5), usdToAtomic(0.1), usdToAtomic(0.3)]).toEqual([
      '5000',
      '4200',
      '2500000',
      '100000',
      '300000',
    ])
    expect(() => usdToAtomic(0.0000001)).toThrow()
  })
})

describe('public endpoints', () => {
  test('without payment channels every surface offers exact only (with channels: channel-terms.test.ts)', async () => {
    expect((await getJson('/services')).schemes).toEqual(['exact'])
    expect(await getJson('/.well-known/x402')).not.toHaveProperty('schemes')
    expect((await getJson('/discovery/resources?limit=1')).items[0].accepts.map((a: any) => a.scheme)).not.toContain(
      'batch-settlement',
    )
    expect((await getJson('/discovery/resources?scheme=batch-settlement')).pagination.total).toBe(0)
    const protocols = (await getJson('/openapi.json')).paths['/api/v1/{slug}'].post['x-payment-info'].protocols
    expect(protocols.map((p: any) => p.x402?.scheme ?? `mpp ${p.mpp.method}/${p.mpp.intent}`)).toEqual([
      'exact',
      'mpp evm/charge',
    ])
  })
  test('health', async () => {
    const h = await getJson('/health')
    expect(h).toMatchObject({ status: 'ok', version: '1.0.0', database: 'ok', network: 'eip155:8453' })
    expect(h.services).toBeGreaterThan(100)
    // A browser may read it from anywhere; no preflight headers on a GET (the OPTIONS answer has them), no cache.
    const r = await s.fetch('/health')
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
    expect(r.headers.get('cache-control')).toBe('no-store')
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(r.headers.get('access-control-allow-methods')).toBeNull()
    // the cached answer (within a second) is the same answer
    const again = await s.fetch('/health')
    expect([...again.headers.keys()].sort()).toEqual([...r.headers.keys()].sort())
    expect(((await again.json()) as { status: string }).status).toBe('ok')
  })
  test('discovery pagination honours limit and offset', async () => {
    const a = await getJson('/discovery/resources?limit=5&offset=3')
    expect(a.items.length).toBe(5)
    expect(a.pagination).toMatchObject({ limit: 5, offset: 3 })
    const b = await getJson('/discovery/resources?limit=1&offset=3')
    expect(b.items[0].resource).toBe(a.items[0].resource)
    expect(a.items[0].lastUpdated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect((await getJson('/discovery/resources?limit=1000')).items.length).toBe(100)
  })
  test('the API reference page is served', async () => {
    const r = await s.fetch('/docs')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toContain('text/html')
    // The viewer comes from this origin and shows the full reference (one operation per service), not the agents'
    // compact document; test/site/docs.test.ts renders it in Chromium with the network off.
    const html = await r.text()
    expect(html).toContain('<script src="docs/swagger-ui-bundle.js')
    expect(html).toContain('<code>POST /api/v1/slugify</code>')
    expect(html).not.toMatch(/https?:\/\/(?!localhost)/)
    expect(await (await s.fetch('/docs/init.js')).text()).toContain("url: 'docs/openapi.json'") // relative to /docs
  })
})
