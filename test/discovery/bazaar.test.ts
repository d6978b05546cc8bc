/**
 * Bazaar metadata (x402 extensions 2.27) checked with the package's own validators and its official discovery
 * client (withBazaar over HTTPFacilitatorClient), against the live server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { HTTPFacilitatorClient } from '@x402/core/server'
import {
  isValidIconUrl,
  isValidServiceName,
  sanitizeResourceServiceMetadata,
  sanitizeTags,
  validateDiscoveryExtension,
  withBazaar,
} from '@x402/extensions/bazaar'
import { decodeB64Json, post, startServer, type TestServer } from '../support/server'

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'
let s: TestServer
let services: any[]
let bazaar: ReturnType<typeof withBazaar<HTTPFacilitatorClient>>['extensions']['bazaar']
beforeAll(async () => {
  // A public origin: bazaar rules refuse loopback icon URLs (facilitators drop them).
  s = await startServer({ env: { PUBLIC_URL: 'https://api.example.com' } })
  services = ((await (await fetch(s.url + '/services')).json()) as any).services
  bazaar = withBazaar(new HTTPFacilitatorClient({ url: s.url })).extensions.bazaar
})
afterAll(() => s.stop())

const V2_FIELDS = ['amount', 'asset', 'extra', 'maxTimeoutSeconds', 'network', 'payTo', 'scheme']

describe('the 402 resource', () => {
  test('carries serviceName, tags and iconUrl that survive the bazaar sanitizer unchanged', async () => {
    for (const slug of ['slugify', 'loan-amortization-schedule', 'luhn-check', 'weather-current']) {
      const svc = services.find((x) => x.slug === slug)
      const r = await post(`${s.url}/api/v1/${slug}`, {})
      expect(r.status).toBe(402)
      const pr = decodeB64Json(r.headers.get('payment-required'))
      const { serviceName, tags, iconUrl } = pr.resource
      expect(isValidServiceName(serviceName)).toBe(true)
      expect(serviceName).toBe('Agent Utility API')
      expect(sanitizeTags(tags)).toEqual(tags)
      expect(tags.length).toBeLessThanOrEqual(5)
      expect(tags[0]).toBe(svc.category)
      expect(isValidIconUrl(iconUrl)).toBe(true)
      expect(sanitizeResourceServiceMetadata(pr.resource)).toEqual({ serviceName, tags, iconUrl })
      expect(validateDiscoveryExtension(pr.extensions.bazaar)).toMatchObject({ valid: true })
    }
  })

  test('the icon it points at is served', async () => {
    const pr = decodeB64Json((await post(`${s.url}/api/v1/slugify`, {})).headers.get('payment-required'))
    expect(pr.resource.iconUrl).toBe('https://api.example.com/icon.svg')
    const r = await fetch(s.url + new URL(pr.resource.iconUrl).pathname)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('image/svg+xml')
    expect(await r.text()).toStartWith('<svg')
  })

  test('v2 accepts carry only v2 PaymentRequirements fields; the v1 body keeps its own', async () => {
    const r = await post(`${s.url}/api/v1/slugify`, {})
    const pr = decodeB64Json(r.headers.get('payment-required'))
    for (const a of pr.accepts) expect(Object.keys(a).sort()).toEqual(V2_FIELDS)
    expect(pr.resource.mimeType).toBe('application/json')
    const v1 = ((await r.json()) as any).accepts[0]
    expect(v1).toMatchObject({
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: pr.accepts[0].amount,
      resource: pr.resource.url,
      mimeType: 'application/json',
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
    })
    expect(v1.description.length).toBeGreaterThan(0)
  })
})

describe("the 402's Bazaar extension: a smaller form in the header, the full one in the body", () => {
  test('both are valid for every service; the header keeps the input body schema and the output example', async () => {
    let smaller = 0
    for (const svc of services.filter((x) => x.available)) {
      const r = await post(`${s.url}/api/v1/${svc.slug}`, {})
      expect([svc.slug, r.status]).toEqual([svc.slug, 402])
      const header = decodeB64Json(r.headers.get('payment-required')).extensions.bazaar
      const full = ((await r.json()) as any).extensions.bazaar
      expect([svc.slug, validateDiscoveryExtension(header)]).toEqual([svc.slug, { valid: true }])
      expect([svc.slug, validateDiscoveryExtension(full)]).toEqual([svc.slug, { valid: true }])
      expect(header.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json' })
      expect(header.schema.properties.input.properties.body).toBeObject()
      expect(header.schema.properties.output.properties.example).toBeObject()
      if (JSON.stringify(header) !== JSON.stringify(full)) smaller++
    }
    expect(smaller).toBeGreaterThan(0)
  })

  test("the body's full extension is the Bazaar list's, with every description", async () => {
    const r = await post(`${s.url}/api/v1/sales-tax-vat-calculator`, {})
    const full = ((await r.json()) as any).extensions.bazaar
    const page = await bazaar.listResources({ type: 'http', limit: 100, offset: 0 })
    const item = page.items.find((i) => i.resource.endsWith('/api/v1/sales-tax-vat-calculator'))!
    expect(full).toEqual(item.extensions!.bazaar)
    expect(JSON.stringify(full.schema.properties.input.properties.body)).toContain('"description"')
    const header = decodeB64Json(r.headers.get('payment-required')).extensions.bazaar
    expect(JSON.stringify(header)).not.toContain('"description"')
  })
})

describe('/discovery/resources through the official bazaar client', () => {
  test('items have ISO lastUpdated, description, mimeType, service metadata and a valid bazaar extension', async () => {
    const page = await bazaar.listResources({ type: 'http', limit: 100, offset: 0 })
    expect(page.pagination.total).toBe(services.length)
    for (const item of page.items) {
      expect(new Date(item.lastUpdated).toISOString()).toBe(item.lastUpdated)
      expect(item.description!.length).toBeGreaterThan(10)
      expect(item.mimeType).toBe('application/json')
      expect(sanitizeResourceServiceMetadata(item as never)).toEqual({
        serviceName: item.serviceName,
        tags: item.tags,
        iconUrl: item.iconUrl,
      })
      expect(validateDiscoveryExtension(item.extensions!.bazaar as never)).toMatchObject({ valid: true })
      for (const a of item.accepts) expect(Object.keys(a).sort()).toEqual(V2_FIELDS)
    }
  })

  test('filters: tags, network, scheme, payTo', async () => {
    const finance = services
      .filter((x) => x.category === 'finance')
      .map((x) => x.slug)
      .sort()
    expect(finance.length).toBeGreaterThan(3)
    const byTag = (await (await fetch(`${s.url}/discovery/resources?tags=finance&limit=100`)).json()) as any
    expect(byTag.items.map((i: any) => i.resource.split('/').pop()).sort()).toEqual(finance)
    expect(byTag.pagination.total).toBe(finance.length)
    const two = (await (await fetch(`${s.url}/discovery/resources?tags=finance,crypto&limit=100`)).json()) as any
    expect(two.pagination.total).toBe(finance.length + services.filter((x) => x.category === 'crypto').length)
    expect(
      (await bazaar.listResources({ network: 'eip155:8453', scheme: 'exact', payTo: PAY_TO.toLowerCase() })).pagination
        .total,
    ).toBe(services.length)
    expect((await bazaar.listResources({ network: 'eip155:84532' })).pagination.total).toBe(0)
    expect((await bazaar.listResources({ scheme: 'upto' })).pagination.total).toBe(0)
    expect((await bazaar.listResources({ payTo: '0x0000000000000000000000000000000000000001' })).pagination.total).toBe(
      0,
    )
    expect((await bazaar.listResources({ type: 'mcp' })).pagination.total).toBe(0)
    expect((await bazaar.listResources({ extensions: 'bazaar' })).pagination.total).toBe(services.length)
  })
})

describe('/discovery/search', () => {
  const search = async (qs: string) => {
    const r = await fetch(`${s.url}/discovery/search?${qs}`)
    return { status: r.status, body: (await r.json()) as any }
  }

  test('ranks by name, tags and description (official client)', async () => {
    const r = await bazaar.search({ query: 'slugify' })
    expect(r.resources[0].resource).toEndWith('/api/v1/slugify')
    const loan = await bazaar.search({ query: 'loan amortization', limit: 3 })
    expect(loan.resources[0].resource).toEndWith('/api/v1/loan-amortization-schedule')
    // Every word must match somewhere: "json" AND "csv" narrows "json".
    const json = (await search('query=json&limit=50')).body
    const both = (await search('query=json%20csv&limit=50')).body
    expect(both.total).toBeGreaterThan(0)
    expect(both.total).toBeLessThan(json.total)
    for (const item of both.resources)
      expect(`${item.resource} ${item.description} ${item.tags.join(' ')}`.toLowerCase()).toMatch(/csv/)
    // A tag finds the whole category; filters apply.
    const fin = (await search('query=finance&tags=finance&limit=50')).body
    expect(fin.total).toBe(services.filter((x) => x.category === 'finance').length)
    expect((await search('query=finance&network=eip155:84532')).body.total).toBe(0)
    expect((await search('query=zzzqqqxx')).body).toMatchObject({
      resources: [],
      pagination: { cursor: null },
      total: 0,
    })
  })

  test('cursor pagination walks every match once', async () => {
    const all = (await search('query=convert&limit=50')).body
    expect(all.total).toBeGreaterThan(4)
    const seen: string[] = []
    let cursor: string | null = null
    for (let i = 0; i < 50; i++) {
      const page: any = (await search(`query=convert&limit=2${cursor ? `&cursor=${cursor}` : ''}`)).body
      expect(page.resources.length).toBeLessThanOrEqual(2)
      seen.push(...page.resources.map((x: any) => x.resource))
      cursor = page.pagination.cursor
      if (!cursor) break
    }
    expect(seen).toEqual(all.resources.map((x: any) => x.resource))
    expect(new Set(seen).size).toBe(all.total)
  })

  test('bad parameters: 422 in the error shape, never a 500', async () => {
    const cursor = (await search('query=convert&limit=1')).body.pagination.cursor
    const cases: Array<[string, string]> = [
      ['', 'INVALID_QUERY'],
      ['query=', 'INVALID_QUERY'],
      ['query=%20%20', 'INVALID_QUERY'],
      ['query=---', 'INVALID_QUERY'],
      [`query=${'a'.repeat(201)}`, 'INVALID_QUERY'],
      [`query=${Array.from({ length: 17 }, (_, i) => `w${i}`).join('+')}`, 'INVALID_QUERY'],
      ['query=json&limit=0', 'INVALID_LIMIT'],
      ['query=json&limit=51', 'INVALID_LIMIT'],
      ['query=json&limit=abc', 'INVALID_LIMIT'],
      ['query=json&limit=-1', 'INVALID_LIMIT'],
      ['query=json&limit=1e3', 'INVALID_LIMIT'],
      ['query=json&cursor=garbage', 'INVALID_CURSOR'],
      [`query=json&cursor=${'A'.repeat(5000)}`, 'INVALID_CURSOR'],
      [`query=json&cursor=${cursor}`, 'INVALID_CURSOR'],
      [`query=convert&tags=data&cursor=${cursor}`, 'INVALID_CURSOR'],
    ]
    for (const [qs, code] of cases) {
      const r = await search(qs)
      expect([qs, r.status]).toEqual([qs, 422])
      expect(r.body).toMatchObject({
        error: { code, message: expect.any(String) },
        request_id: expect.stringMatching(/^req_/),
      })
    }
  })

  test('random parameters: always 200 or 422, never a 500', async () => {
    const pieces = [
      'json',
      '%ZZ',
      '%00',
      '\u00e9',
      '😀',
      'a'.repeat(300),
      '-1',
      '0',
      '1',
      '50',
      'NaN',
      '1.5',
      ' ',
      '&',
      '=',
      'csv+to',
      'eyJ',
    ]
    let seed = 7
    const pick = () => pieces[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % pieces.length]
    for (let i = 0; i < 60; i++) {
      const qs = `query=${pick()}${pick()}&limit=${pick()}${i % 3 ? `&cursor=${pick()}` : ''}&tags=${pick()}`
      const r = await fetch(`${s.url}/discovery/search?${qs}`)
      expect([qs, [200, 422].includes(r.status)]).toEqual([qs, true])
      expect(await r.json()).toBeObject()
    }
  })
})

describe('the extension runtime/catalog/bazaar.ts builds', () => {
  test("is, for every shipped service, what the package's declareDiscoveryExtension builds", async () => {
    // Built without the package's module at boot (it loads ajv and zod); held to the package here.
    const { buildCatalog } = await import('../../runtime/catalog')
    const { loadConfig } = await import('../../runtime/config')
    const { categories, entries } = await import('../support/entries')
    const { declareDiscoveryExtension } = await import('@x402/extensions/bazaar')
    const built = buildCatalog(entries, loadConfig({}).config, true, categories)
    expect(built.problems).toEqual([])
    expect(built.services.length).toBeGreaterThan(100)
    for (const svc of built.services) {
      const example = svc.manifest.examples?.[0]
      const theirs = declareDiscoveryExtension({
        method: 'POST',
        bodyType: 'json',
        input: (example?.input ?? {}) as Record<string, unknown>,
        inputSchema: svc.inputJsonSchema,
        output: { example: example?.output ?? {} },
      } as never) as { bazaar: unknown }
      expect([svc.slug, svc.bazaar]).toEqual([svc.slug, theirs])
    }
  })
})
