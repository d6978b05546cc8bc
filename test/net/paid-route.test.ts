/**
 * Web and live-data services through the real paid route: the official client pays, the runtime's own safe fetcher
 * and upstream clients (configured by FETCH_ALLOW_HOSTS and UPSTREAM_<NAME>_URL) reach loopback fixtures, and a
 * failing upstream is a 502 that settles nothing.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { decodeB64Json, type TestServer } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { html, json, serve, type Fixture } from './support'
import { FORECAST_CURRENT } from '../support/live-data-recorded'
import { payingFetch } from '../support/paying-fetch'

const ARTICLE = readFileSync(join(import.meta.dir, 'fixtures', 'article.html'), 'utf8')
const CURRENT = FORECAST_CURRENT

let chain: DevChain
let site: Fixture
let meteo: Fixture
let broken: Fixture
let s: TestServer
beforeAll(async () => {
  chain = await startDevChain()
  site = serve((_req, url) => (url.pathname === '/article' ? html(ARTICLE) : html('<p>not found</p>', 404)))
  meteo = serve(() => json(CURRENT))
  broken = serve(() => json({ error: true, reason: 'boom' }, 500))
  s = await startServerOnChain(chain, {
    env: {
      FETCH_ALLOW_HOSTS: site.host,
      UPSTREAM_OPEN_METEO_URL: meteo.url,
      UPSTREAM_COINGECKO_URL: broken.url,
    },
  })
})
afterAll(async () => {
  await s?.stop()
  for (const f of [site, meteo, broken]) f?.stop()
  await chain?.stop()
})

const pay = () => payingFetch(chain.payer.privateKey as Hex)
const body = (b: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(b),
})

test('read-url through the paid route reads an allow-listed page and settles 0.005', async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const r = await pay()(s.url + '/api/v1/read-url', body({ code: `${site.url}/article` }))
  expect(r.status).toBe(200)
  const out = (await r.json()) as any
  expect(out.final_url ?? out.url).toContain('/article')
  expect(typeof out.markdown).toBe('string')
  expect(out.word_count).toBeGreaterThan(50)
  expect(decodeB64Json(r.headers.get('payment-response')).success).toBe(true)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(5000n)
})

test('a private address that is not allow-listed is refused with a 4xx and not charged', async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const r = await pay()(s.url + '/api/v1/read-url', body({ code: 'http://127.0.0.1:9/secret' }))
  expect(r.status).toBe(422)
  expect(((await r.json()) as any).error.code).toBe('URL_NOT_ALLOWED')
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
})

test('weather-current through the paid route uses the configured upstream and carries attribution', async () => {
  const r = await pay()(s.url + '/api/v1/weather-current', body({ lat: 52.52, lon: 13.41 }))
  expect(r.status).toBe(200)
  const out = (await r.json()) as any
  expect(JSON.stringify(out)).toContain('18.3')
  expect(out.attribution).toBeDefined()
  expect(meteo.hits()).toBe(1)
})

test('an upstream failure is a 502 with upstream and retryable, and nothing is settled', async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const r = await pay()(s.url + '/api/v1/crypto-price', body({ ids: 'bitcoin', vs: 'usd' }))
  expect(r.status).toBe(502)
  expect(((await r.json()) as any).error).toMatchObject({ upstream: 'coingecko', retryable: true })
  expect(r.headers.get('payment-response')).toBeNull()
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
})
