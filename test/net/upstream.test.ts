/** The live-data upstream client (runtime/net/upstream.ts) and the defaults table. */
import { afterAll, describe, expect, test } from 'bun:test'
import { createUpstreams, TtlLru } from '../../runtime/net/upstream'
import { upstreamEnvName, withUpstreamDefaults } from '../../runtime/net/upstream-defaults'
import { entries, upstreams } from '../support/entries'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { json, neverAnswers, serve, serviceError, upstreamFailure } from './support'

let counter = 0
const api = serve((req, url) => {
  const p = url.pathname
  if (p === '/count')
    return json({
      n: ++counter,
      q: Object.fromEntries(url.searchParams),
      ua: req.headers.get('user-agent'),
      key: req.headers.get('x-api-key'),
    })
  if (p === '/slow-ok') return json({ slow: true })
  if (p === '/500') return json({ error: 'boom' }, 500)
  if (p === '/404') return json({ message: 'not found' }, 404)
  if (p === '/429')
    return json({ status: { error_code: 429, error_message: "You've exceeded the Rate Limit" } }, 429, {
      'retry-after': '30',
    })
  if (p === '/garbage') return new Response('<html>Bad gateway</html>', { headers: { 'content-type': 'text/html' } })
  if (p === '/hang') return neverAnswers(req)
  if (p.startsWith('/wiki/')) return json({ path: p })
  return json({ ok: true })
})
afterAll(() => api.stop())

const clients = (o: Parameters<typeof createUpstreams>[2] = {}) =>
  createUpstreams(
    {
      demo: { url: api.url, timeoutMs: 500 },
      keyed: { url: api.url, key: 'k123', keyParam: 'apikey' },
      header: { url: api.url, key: 'h456', keyHeader: 'x-api-key' },
      wiki: { url: `${api.url}/wiki/{lang}` },
    },
    fetch,
    o,
  )

describe('getJson', () => {
  test('GET JSON with query and a descriptive User-Agent', async () => {
    const { status, data } = await clients()('demo').getJson<{ q: Record<string, string>; ua: string }>('/count', {
      a: 1,
      b: true,
      skip: undefined,
    })
    expect(status).toBe(200)
    expect(data.q).toEqual({ a: '1', b: 'true' })
    expect(data.ua).toContain('x402-agent-api/1.0')
  })
  test('a key goes in its query parameter or header', async () => {
    const up = clients()
    expect(((await up('keyed').getJson('/count')).data as { q: Record<string, string> }).q.apikey).toBe('k123')
    expect(((await up('header').getJson('/count')).data as { key: string }).key).toBe('h456')
  })
  test('base URL placeholders are filled from the query and validated', async () => {
    const up = clients()('wiki')
    expect((await up.getJson<{ path: string }>('/page/summary/X', { lang: 'de' })).data.path).toBe(
      '/wiki/de/page/summary/X',
    )
    await serviceError(up.getJson('/x', { lang: 'evil.com/' }), 422, 'INVALID_INPUT')
  })
  test('unknown upstream: 503 NOT_CONFIGURED', async () => {
    await serviceError(
      Promise.resolve().then(() => clients()('nope')),
      503,
      'NOT_CONFIGURED',
    )
  })
})

describe('cache and de-duplication', () => {
  test('a burst of 10 identical calls makes one upstream request', async () => {
    const up = clients()('demo')
    const before = api.hits('/slow-ok')
    const all = await Promise.all(Array.from({ length: 10 }, () => up.getJson('/slow-ok', { burst: 1 })))
    expect(api.hits('/slow-ok') - before).toBe(1)
    expect(all.every((r) => (r.data as { slow: boolean }).slow)).toBe(true)
  })
  test('sequential calls within the TTL are served from the cache; after it, fetched again', async () => {
    let now = 1_000_000
    const up = clients({ clock: () => now })('demo')
    const a = await up.getJson<{ n: number }>('/count', { ttl: 1 }, { ttlMs: 60_000 })
    const b = await up.getJson<{ n: number }>('/count', { ttl: 1 }, { ttlMs: 60_000 })
    expect(b.data.n).toBe(a.data.n)
    now += 60_001
    const c = await up.getJson<{ n: number }>('/count', { ttl: 1 }, { ttlMs: 60_000 })
    expect(c.data.n).toBe(a.data.n + 1)
  })
  test('without ttlMs nothing is cached', async () => {
    const up = clients()('demo')
    const a = await up.getJson<{ n: number }>('/count', { nocache: 1 })
    const b = await up.getJson<{ n: number }>('/count', { nocache: 1 })
    expect(b.data.n).toBe(a.data.n + 1)
  })
  test('failures are not cached', async () => {
    const up = clients()('demo')
    const before = api.hits('/500')
    await serviceError(up.getJson('/500', {}, { ttlMs: 60_000 }), 502)
    await serviceError(up.getJson('/500', {}, { ttlMs: 60_000 }), 502)
    expect(api.hits('/500') - before).toBe(2)
  })
  test('the LRU is bounded and evicts the least recently used entry', () => {
    const lru = new TtlLru<number>(3, () => 0)
    lru.set('a', 1, 10)
    lru.set('b', 2, 10)
    lru.set('c', 3, 10)
    lru.get('a')
    lru.set('d', 4, 10)
    expect(lru.size).toBe(3)
    expect(lru.get('b')).toBeUndefined()
    expect(lru.get('a')).toBe(1)
  })
})

describe('failures carry upstream and retryable', () => {
  test('HTTP 500: 502 retryable', async () => {
    const e = await upstreamFailure(clients()('demo').getJson('/500'), 502, 'demo', true)
    expect(e.message).toContain('HTTP 500')
  })
  test('HTTP 404 not allowed: 502 not retryable; allowed: returned', async () => {
    await upstreamFailure(clients()('demo').getJson('/404'), 502, 'demo', false)
    expect((await clients()('demo').getJson('/404', {}, { allowStatus: [404] })).status).toBe(404)
  })
  test('HTTP 429: 502 retryable with Retry-After passed on', async () => {
    const e = await upstreamFailure(clients()('demo').getJson('/429'), 502, 'demo', true)
    expect(e.headers).toEqual({ 'Retry-After': '30' })
  })
  test('a body that is not JSON: 502', async () => {
    const e = await upstreamFailure(clients()('demo').getJson('/garbage'), 502, 'demo', true)
    expect(e.message).toContain('not JSON')
  })
  test('timeout: 504', async () => {
    const e = await upstreamFailure(clients()('demo').getJson('/hang'), 504, 'demo', true)
    expect(e.code).toBe('UPSTREAM_TIMEOUT')
  })
  test('unreachable: 502 retryable', async () => {
    const gone = serve(() => json({}))
    gone.stop()
    await upstreamFailure(createUpstreams({ x: { url: gone.url, timeoutMs: 1000 } })('x').getJson('/'), 502, 'x', true)
  })
})

describe('the upstreams the services declare (services/upstreams.ts)', () => {
  test('every upstream has url, timeout, terms and an attribution, and clients carry that attribution', () => {
    const up = createUpstreams(withUpstreamDefaults(upstreams))
    for (const [name, d] of Object.entries(upstreams)) {
      expect(d.url).toMatch(/^https:\/\//)
      expect(d.timeoutMs).toBeGreaterThan(0)
      expect(d.terms.length).toBeGreaterThan(20)
      expect(Object.values(d.attribution).every((v) => typeof v === 'string' && v.length > 2)).toBe(true)
      expect(up(name).attribution).toEqual(d.attribution)
    }
    // An operator-only upstream has no declared attribution: it is attributed to its host, never left empty.
    expect(createUpstreams({ mine: { url: 'https://data.example.org/v2' } })('mine').attribution.source).toBe(
      'data.example.org',
    )
  })
  test('docs/upstreams.md (generated by `npm run gen`) lists exactly the declared upstreams, their URLs and variables', () => {
    const doc = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'upstreams.md'), 'utf8')
    const head = doc.indexOf('| upstream | default base URL | variables |')
    expect(head).toBeGreaterThan(0)
    const rows = doc
      .slice(head)
      .split('\n')
      .slice(2)
      .filter((l) => l.startsWith('|'))
      .map((l) => l.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim()))
    expect(rows.map((r) => r[0]).sort()).toEqual(Object.keys(upstreams).sort())
    for (const [name, url, vars] of rows) {
      const d = (upstreams as Record<string, { url: string; keyParam?: string; keyHeader?: string }>)[name]
      expect(url).toBe(d.url)
      expect(vars).toContain(`\`${upstreamEnvName(name, 'URL')}\``)
      expect(vars.includes(`\`${upstreamEnvName(name, 'KEY')}\``)).toBe(Boolean(d.keyParam || d.keyHeader))
    }
  })
  test('env names and merging', () => {
    expect(upstreamEnvName('open-meteo-air-quality', 'URL')).toBe('UPSTREAM_OPEN_METEO_AIR_QUALITY_URL')
    const merged = withUpstreamDefaults(upstreams, {
      'open-meteo': { url: 'https://customer-api.open-meteo.com/v1', key: 'K' },
      extra: { url: 'https://x.example' },
      empty: {},
    })
    expect(merged['open-meteo']).toEqual({
      url: 'https://customer-api.open-meteo.com/v1',
      key: 'K',
      timeoutMs: 6000,
      keyParam: 'apikey',
      keyHeader: undefined,
      attribution: upstreams['open-meteo'].attribution,
    })
    expect(merged.coingecko.keyHeader).toBe('x-cg-demo-api-key')
    expect(merged.extra.url).toBe('https://x.example')
    expect(merged.empty).toBeUndefined()
  })
  test('every live-data manifest names only upstreams of the table (services/upstreams.ts)', () => {
    for (const e of entries) for (const u of e.manifest.upstreams ?? []) expect(Object.keys(upstreams)).toContain(u)
  })
})
