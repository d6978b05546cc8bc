/**
 * #24 item 6e: the dev chain's demo payer signs only for this server's own pages. A cross-site page cannot reach it:
 * no CORS header on any answer (preflight included), a foreign Origin or Sec-Fetch-Site is 403, a non-JSON body
 * (the "simple" requests a page may send without a preflight) is 415. Values out of uint256 are a 422 that says what
 * to send, never a 500. Real sockets; the payer's key is a fresh one (signing needs no chain).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startServer, type TestServer } from '../support/server'

const PAYEE = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'
const key = generatePrivateKey()
const payer = privateKeyToAccount(key)
let s: TestServer
beforeAll(async () => {
  s = await startServer({ payTo: PAYEE, devPayer: { address: payer.address, privateKey: key } })
})
afterAll(() => s?.stop())

const typedData = (message: Record<string, unknown> = {}) => ({
  domain: {
    name: 'USD Coin',
    version: '2',
    chainId: 8453,
    verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  },
  primaryType: 'TransferWithAuthorization',
  message: {
    from: payer.address,
    to: PAYEE,
    value: '1000',
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + 60),
    nonce: `0x${'11'.repeat(32)}`,
    ...message,
  },
})
const sign = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(s.url + '/api/dev-payer/sign', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: s.url, 'sec-fetch-site': 'same-origin', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
const noCors = (r: Response) => {
  expect(r.headers.get('access-control-allow-origin')).toBeNull()
  expect(r.headers.get('access-control-allow-methods')).toBeNull()
  expect(r.headers.get('access-control-allow-headers')).toBeNull()
}

test('the page of this server gets a signature; no answer carries a CORS header', async () => {
  const ok = await sign(typedData())
  expect(ok.status).toBe(200)
  expect(((await ok.json()) as { signature: string }).signature).toMatch(/^0x[0-9a-f]{130}$/)
  noCors(ok)
  const info = await fetch(s.url + '/api/dev-payer')
  expect(info.status).toBe(200)
  noCors(info)
  for (const path of ['/api/dev-payer/sign', '/api/dev-payer']) {
    const pre = await fetch(s.url + path, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(pre.status).toBeLessThan(300)
    noCors(pre)
  }
  // the rest of the API keeps its CORS for browser agents
  const other = await fetch(s.url + '/api/v1/slugify', { method: 'OPTIONS' })
  expect(other.headers.get('access-control-allow-origin')).toBe('*')
})

test('another web page is refused: foreign Origin, cross-site fetch metadata, no Origin at all (403 CROSS_ORIGIN)', async () => {
  const cases: Array<Record<string, string>> = [
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    { origin: 'https://evil.example' },
    { origin: 'null' },
    { origin: s.url, 'sec-fetch-site': 'cross-site' },
    { origin: s.url, 'sec-fetch-site': 'same-site' },
  ]
  for (const headers of cases) {
    const r = await sign(typedData(), headers)
    expect([headers, r.status]).toEqual([headers, 403])
    expect(((await r.json()) as any).error.code).toBe('CROSS_ORIGIN')
    noCors(r)
  }
  const bare = await fetch(s.url + '/api/dev-payer/sign', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(typedData()),
  })
  expect(bare.status).toBe(403)
})

test('only a JSON content type is read (415): a form or text/plain POST, which needs no preflight, signs nothing', async () => {
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '',
  ]) {
    const r = await sign(JSON.stringify(typedData()), { 'content-type': type })
    expect([type, r.status]).toEqual([type, 415])
    const b = (await r.json()) as any
    expect(b.error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(JSON.stringify(b)).not.toMatch(/0x[0-9a-f]{130}/)
  }
  expect((await sign(typedData(), { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200)
})

test('numbers out of uint256 are a 422 saying what to send, never a 500', async () => {
  const huge = (2n ** 256n).toString()
  for (const [message, path] of [
    [{ validAfter: huge }, '/message/validAfter'],
    [{ validAfter: '9'.repeat(78) }, '/message/validAfter'],
    [{ validAfter: String(Math.floor(Date.now() / 1000) + 61) }, '/message/validAfter'],
    [{ validAfter: -1 }, '/message/validAfter'],
    [{ validBefore: huge }, '/message/validBefore'],
    [{ value: huge }, '/message/value'],
  ] as const) {
    const r = await sign(typedData(message))
    expect([message, r.status]).toEqual([message, 422])
    const b = (await r.json()) as any
    expect(b.error.code).toBe('REFUSED_TO_SIGN')
    expect(b.error.details[0].path).toBe(path)
  }
  // the largest uint256 below validBefore is still signed (validAfter = validBefore - 1)
  const before = Math.floor(Date.now() / 1000) + 60
  expect((await sign(typedData({ validAfter: String(before - 1), validBefore: String(before) }))).status).toBe(200)
  expect(s.logs.join('\n')).not.toContain('dev payer signing failed')
})
