/**
 * CDP API-key auth end to end: FACILITATOR_URL lists a dead facilitator, then a CDP-style gateway that checks
 * every request's JWT (signature with the key's public half, kid, sub, iss, lifetime, uris bound to the exact
 * request) before forwarding to the official x402 facilitator settling on the local chain. The official client pays.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { loadConfig } from '../../runtime/config'
import { createLogger } from '../../runtime/log'
import { createCdpAuth, normalizeCdpSecret } from '../../runtime/pay/facilitator/cdp-auth'
import { createRemoteFacilitator } from '../../runtime/pay/facilitator/remote'
import { remoteFacilitators } from '../../runtime/pay/facilitator/remote-setup'
import { startOfficialFacilitator, type OfficialFacilitator } from '../support/official-facilitator'
import { startServer, type TestServer } from '../support/server'
import { until } from '../support/until'
import { payingFetch } from '../support/paying-fetch'
import { sqliteOf } from '../../runtime/db/open'

const KEY_ID = 'organizations/11111111-2222-3333-4444-555555555555/apiKeys/66666666-7777-8888-9999-000000000000'

interface Seen {
  method: string
  path: string
  ok: boolean
  reason?: string
  jti: string
}

/** A CDP-like gateway on loopback: verifies the JWT of every request, then forwards it to `upstream`. */
function cdpGateway(publicKey: KeyObject, upstream: string) {
  const seen: Seen[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const token = req.headers.get('authorization')?.match(/^Bearer (.+)$/)?.[1] ?? ''
      const record: Seen = { method: req.method, path: url.pathname, ok: false, jti: token.slice(-24) }
      seen.push(record)
      try {
        const header = decodeProtectedHeader(token)
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: 'cdp',
          algorithms: ['ES256', 'EdDSA'],
          clockTolerance: 5,
        })
        if (header.kid !== KEY_ID) throw new Error(`kid ${header.kid}`)
        if (typeof header.nonce !== 'string' || header.nonce.length < 16) throw new Error('no nonce')
        if (payload.sub !== KEY_ID) throw new Error(`sub ${payload.sub}`)
        if (JSON.stringify(payload.uris) !== JSON.stringify([`${req.method} ${url.host}${url.pathname}`]))
          throw new Error(`uris ${JSON.stringify(payload.uris)}`)
        if (payload.exp! - payload.nbf! > 120) throw new Error('lifetime over 120 s')
      } catch (e) {
        record.reason = (e as Error).message
        return Response.json({ errorMessage: 'unauthorized' }, { status: 401 })
      }
      record.ok = true
      const path = url.pathname.replace(/^\/platform\/v2\/x402/, '')
      return fetch(upstream + path, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: req.method === 'POST' ? await req.text() : undefined,
      })
    },
  })
  return { url: `http://127.0.0.1:${server.port}/platform/v2/x402`, seen, stop: () => server.stop(true) }
}

function deadUrl(): string {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const url = `http://127.0.0.1:${s.port}/platform/v2/x402`
  s.stop(true)
  return url
}

/** ES256 key as CDP hands it out for .env files: SEC1 PEM with escaped line breaks. */
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const EC_SECRET = (ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string).replace(/\n/g, '\\n')
/** Ed25519 key as CDP hands it out: base64 of seed (32 bytes) + public key (32 bytes). */
const ed = generateKeyPairSync('ed25519')
const edJwk = ed.privateKey.export({ format: 'jwk' })
const ED_SECRET = Buffer.concat([Buffer.from(edJwk.d!, 'base64url'), Buffer.from(edJwk.x!, 'base64url')]).toString(
  'base64',
)

let chain: DevChain
let fac: OfficialFacilitator
beforeAll(async () => {
  chain = await startDevChain()
  fac = startOfficialFacilitator(chain.rpcUrl, chain.settler.privateKey as Hex)
}, 120_000)
afterAll(async () => {
  fac?.stop()
  await chain?.stop()
})

describe('ES256 key, first facilitator down', () => {
  let gw: ReturnType<typeof cdpGateway>
  let s: TestServer
  let list: ReturnType<typeof remoteFacilitators>
  const facLogs: string[] = []
  beforeAll(async () => {
    gw = cdpGateway(ec.publicKey, fac.url)
    const dead = deadUrl()
    const env = {
      PAY_TO: chain.payee.address,
      FACILITATOR_URL: `${dead},${gw.url}`,
      CDP_API_KEY_ID: KEY_ID,
      CDP_API_KEY_SECRET: EC_SECRET,
      FACILITATOR_BREAKER_FAILURES: '2',
    }
    const { config, problems } = loadConfig(env)
    expect(problems).toEqual([])
    expect(config.networks[0].facilitatorUrls).toEqual([dead, gw.url])
    list = remoteFacilitators(
      config,
      createLogger('info', (l) => facLogs.push(l)),
    )
    s = await startServer({ facilitator: list, payTo: chain.payee.address, env })
    // The background /supported check reached the gateway (with a JWT) and failed once on the dead one.
    await until(
      () => gw.seen.some((x) => x.path.endsWith('/supported')) && list.states()[0].consecutive_failures === 1,
      30_000,
      'the /supported check',
    )
  }, 120_000)
  afterAll(async () => {
    await s?.stop()
    gw?.stop()
  })

  test('the official client pays; /verify, /settle and /supported each carry a valid, request-bound JWT', async () => {
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const pay = payingFetch(chain.payer.privateKey as Hex)
    const r = await pay(s.url + '/api/v1/slugify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Paid via CDP auth' }),
    })
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ slug: 'paid-via-cdp-auth', length: 17 })
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(1000n)
    expect(gw.seen.map((x) => [x.method, x.path.replace('/platform/v2/x402', ''), x.ok, x.reason])).toEqual([
      ['GET', '/supported', true, undefined],
      ['POST', '/verify', true, undefined],
      ['POST', '/settle', true, undefined],
    ])
    expect(new Set(gw.seen.map((x) => x.jti)).size).toBe(3)
    expect([fac.calls.verify, fac.calls.settle]).toEqual([1, 1])
  })

  test('/health shows the dead facilitator open and the CDP one closed', async () => {
    // /health caches its body for a second: poll until it reflects the open breaker.
    let h: any
    for (const end = Date.now() + 30_000; Date.now() < end; await Bun.sleep(50)) {
      h = await (await fetch(s.url + '/health')).json()
      if (h.facilitator?.facilitators?.[0]?.state === 'open') break
    }
    expect(h.facilitator).toMatchObject({
      ok: true,
      canPay: true,
      facilitators: [
        { state: 'open', consecutive_failures: 2 },
        { url: gw.url, state: 'closed', consecutive_failures: 0 },
      ],
    })
  })

  test('money adds up; no key material or token in any log', async () => {
    const stats = (await (await fetch(s.url + '/stats')).json()) as any
    const settled = sqliteOf(s.booted).ledger.settledTotal()
    expect(settled).toBe(1000n)
    expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(settled)
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(settled)
    const logs = [...s.logs, ...facLogs].join('\n')
    expect(logs).toContain('facilitator breaker open')
    expect(logs).not.toContain('Bearer')
    expect(logs).not.toContain('PRIVATE KEY')
    expect(logs).not.toContain(EC_SECRET.slice(40, 80))
  })
})

describe('Ed25519 key', () => {
  test('the same checks pass with an EdDSA JWT; a wrong key is refused (401) and not retried as a success', async () => {
    const gw = cdpGateway(ed.publicKey, fac.url)
    try {
      const good = createRemoteFacilitator({ url: gw.url, auth: createCdpAuth(KEY_ID, ED_SECRET) })
      const kinds = (await good.supported()).kinds
      expect(kinds.some((k) => k.x402Version === 2 && k.scheme === 'exact' && k.network === 'eip155:8453')).toBe(true)
      expect(gw.seen.at(-1)).toMatchObject({ ok: true })
      const wrong = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })
      const bad = createRemoteFacilitator({
        url: gw.url,
        auth: createCdpAuth(
          KEY_ID,
          Buffer.concat([Buffer.from(wrong.d!, 'base64url'), Buffer.from(wrong.x!, 'base64url')]).toString('base64'),
        ),
      })
      await expect(bad.supported()).rejects.toThrow('refused the request (401)')
      expect(gw.seen.at(-1)).toMatchObject({ ok: false, reason: expect.stringContaining('signature') })
    } finally {
      gw.stop()
    }
  })

  test('secrets are accepted as CDP hands them out', () => {
    expect(normalizeCdpSecret(ED_SECRET)).toBe(ED_SECRET)
    const pkcs8 = normalizeCdpSecret(EC_SECRET)
    expect(pkcs8).toStartWith('-----BEGIN PRIVATE KEY-----\n')
    expect(normalizeCdpSecret(pkcs8.replace(/\n/g, '\\n')).trim()).toBe(pkcs8.trim())
  })

  test('config: CDP key without FACILITATOR_URL means the CDP facilitator; half a key is a boot error', () => {
    const env = {
      PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      CDP_API_KEY_ID: KEY_ID,
      CDP_API_KEY_SECRET: ED_SECRET,
    }
    expect(loadConfig(env).config.networks[0].facilitatorUrls).toEqual([
      'https://api.cdp.coinbase.com/platform/v2/x402',
    ])
    expect(loadConfig({ ...env, CDP_API_KEY_SECRET: '' }).problems.join()).toContain(
      'CDP_API_KEY_ID and CDP_API_KEY_SECRET go together',
    )
    expect(loadConfig({ ...env, FACILITATOR_URL: 'https://a.example/x402, ftp://b' }).problems.join()).toContain(
      'comma-separated list of http(s) URLs',
    )
    const malformed = loadConfig({
      ...env,
      FACILITATOR_URL: 'https://a.example/x402,http://user:pw1234@[bad',
    }).problems.join()
    expect(malformed).toContain('http://***@[bad')
    expect(malformed).not.toContain('pw1234')
  })
})
