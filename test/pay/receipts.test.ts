/**
 * Signed receipts (docs/receipts.md): the key is generated once and kept across restarts, or configured; the
 * receipt's kid resolves (did:web, over real HTTP) to the key this server publishes, and the offer-receipt
 * extension's own verifier accepts it; one changed byte and it fails, here and in `npm run receipt:verify`.
 * Paid receipts end to end: test/model/stream.test.ts and test/mcp/progress.test.ts.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  canonicalize,
  createJWS,
  extractJWSHeader,
  verifyReceiptSignatureJWS,
  type JWSSignedReceipt,
} from '@x402/extensions/offer-receipt'
import { Elysia } from 'elysia'
import { createLogger } from '../../runtime/log'
import { receiptRoutes } from '../../runtime/pay/server/receipt-routes'
import {
  canonicalJson,
  createReceiptIssuer,
  defaultKeyPath,
  KEY_FILE,
  loadReceiptKey,
  type ReceiptFacts,
  type ReceiptIssuer,
} from '../../runtime/pay/server/receipts'
import { startChild } from '../../bench/lib'
import { startApp } from '../support/server'
import { UNREACHABLE_CHAIN } from '../support/server-process'

const log = createLogger('error', () => {})
const dir = mkdtempSync(join(tmpdir(), 'x402-receipts-'))
let server: ReturnType<typeof Bun.serve>
let issuer: ReceiptIssuer
const facts: ReceiptFacts = {
  resourceUrl: 'https://api.example.com/api/v1/code-review?tier=pro',
  service: 'code-review',
  tier: 'pro',
  requestHash: 'a'.repeat(64),
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '3000000',
  payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  payer: '0x7dB298D39550a4f449Bcb55e2861ee3EF9dC3AD1',
  transaction: `0x${'b'.repeat(64)}`,
}

beforeAll(async () => {
  // A real HTTP server publishing the did.json of a key whose did:web names that very server.
  let app: Elysia | undefined
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => app!.handle(req) })
  const key = await loadReceiptKey('', join(dir, 'key.json'), log, false)
  issuer = await createReceiptIssuer(key, `http://127.0.0.1:${server.port}`)
  app = new Elysia().use(receiptRoutes(issuer, 65536, 5000, log)) as unknown as Elysia
})
afterAll(() => {
  server?.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

const tamper = (r: JWSSignedReceipt, change: Record<string, unknown>): JWSSignedReceipt => {
  const [h, p, sig] = r.signature.split('.')
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString())
  return {
    format: 'jws',
    signature: `${h}.${Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url')}.${sig}`,
  }
}

test('a receipt verifies with the extension verifier resolving its did:web kid; a tampered one does not', async () => {
  const receipt = await issuer.issue(facts)
  expect(receipt.format).toBe('jws')
  expect(issuer.kid).toStartWith(`did:web:127.0.0.1%3A${server.port}#`)
  const payload = await verifyReceiptSignatureJWS(receipt)
  expect(payload).toMatchObject({ ...facts, version: 1, issuedAt: expect.any(Number) })
  await expect(verifyReceiptSignatureJWS(tamper(receipt, { amount: '1' }))).rejects.toThrow()
  await expect(verifyReceiptSignatureJWS(tamper(receipt, { payer: facts.payTo }))).rejects.toThrow()
})

test("a receipt is the extension's JWS: the same header and canonical payload as createJWS, signed without it", async () => {
  const channel = {
    ...facts,
    scheme: 'batch-settlement',
    transaction: '',
    channel: { id: `0x${'c'.repeat(64)}`, cumulative: '7000' },
  }
  for (const f of [facts, channel]) {
    const receipt = await issuer.issue(f)
    const [h, p] = receipt.signature.split('.')
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString())
    // the extension's own JWS of the same payload (its signature differs: ECDSA signatures are randomized)
    const theirs = await createJWS(payload, {
      kid: issuer.kid,
      format: 'jws',
      algorithm: 'ES256',
      sign: async () => 'x',
    })
    expect(`${h}.${p}`).toBe(theirs.split('.').slice(0, 2).join('.'))
    expect(extractJWSHeader(receipt.signature)).toEqual({ alg: 'ES256', kid: issuer.kid })
    expect(await verifyReceiptSignatureJWS(receipt, issuer.publicJwk as never)).toEqual(payload)
  }
  // the canonical form, byte for byte the extension's, on strings that need escapes and values of every kind
  const odd = [
    'plain',
    'quote " backslash \\ slash /',
    'controls \u0000\u0001\n\t\r\u001f and \u007f',
    'unicode é — 😀 \u2028\u2029',
    'lone \ud800 surrogate \udc00',
    '',
  ]
  const value = {
    z: odd,
    a: {
      n: 1.5,
      neg: -0,
      big: 1e21,
      small: 1e-7,
      t: true,
      f: false,
      nil: null,
      skip: undefined,
      arr: [1, 'x', null, [], {}],
    },
    'k"ey\\': odd[2],
    é: 'accented key',
    B: 'upper before lower',
  }
  expect(canonicalJson(value)).toBe(canonicalize(value))
  for (const s of odd) expect(canonicalJson(s)).toBe(canonicalize(s))
  expect(() => canonicalJson(Number.NaN)).toThrow()
})

test('POST /receipts/verify and npm run receipt:verify check one; tampered fails', async () => {
  const receipt = await issuer.issue(facts)
  const ask = async (body: unknown) =>
    (await (
      await fetch(`http://127.0.0.1:${server.port}/receipts/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as { valid: boolean; payload?: unknown; reason?: string }
  expect(await ask({ receipt })).toMatchObject({ valid: true, kid: issuer.kid, payload: { amount: '3000000' } })
  const header = Buffer.from(JSON.stringify({ success: true, extensions: { 'offer-receipt': { info: { receipt } } } }))
  expect((await ask({ payment_response: header.toString('base64') })).valid).toBe(true)
  expect((await ask({ receipt: tamper(receipt, { tier: 'quick' }) })).valid).toBe(false)
  // The command resolves the kid over HTTP from this process's server: spawned without blocking it.
  const run = async (arg: string) => {
    const p = Bun.spawn([process.execPath, 'scripts/verify-receipt.ts', arg], { stdout: 'pipe', stderr: 'pipe' })
    const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()])
    if (!out) throw new Error(`receipt:verify printed nothing: ${err}`)
    return { code, out: JSON.parse(out) }
  }
  expect(await run(receipt.signature)).toMatchObject({
    code: 0,
    out: { valid: true, payload: { service: 'code-review' } },
  })
  expect(await run(tamper(receipt, { amount: '1' }).signature)).toMatchObject({ code: 1, out: { valid: false } })
})

test('the generated key is kept (mode 0600) and reused after a restart; a configured key wins', async () => {
  const path = join(dir, 'kept', 'key.json')
  const first = await loadReceiptKey('', path, log, false)
  expect(statSync(path).mode & 0o777).toBe(0o600)
  expect(await loadReceiptKey('', path, log, false)).toEqual(first)
  const other = await loadReceiptKey('', join(dir, 'other.json'), log, false)
  expect(await loadReceiptKey(JSON.stringify(other), path, log, false)).toEqual(other)
  expect(defaultKeyPath('/var/lib/api/api.sqlite')).toBe(`/var/lib/api/${KEY_FILE}`)
})

test('an in-memory database gets a key for this run only: nothing written, a warning', async () => {
  expect(defaultKeyPath(':memory:')).toBeNull()
  const lines: string[] = []
  const first = await loadReceiptKey(
    '',
    null,
    createLogger('info', (l) => lines.push(l)),
    false,
  )
  expect(first).toMatchObject({ kty: 'EC', crv: 'P-256' })
  expect(await loadReceiptKey('', null, log, false)).not.toEqual(first)
  expect(lines.join('\n')).toMatch(/"level":"warn".*this run only.*RECEIPT_SIGNING_KEY/)
  expect(lines.join('\n')).not.toContain(first.d)
})

test('a server booted with DATABASE_PATH=:memory: writes nothing into its working directory', async () => {
  const cwd = mkdtempSync(join(dir, 'cwd-'))
  const server = await startChild(
    [process.execPath, join(import.meta.dir, '../../runtime/index.ts')],
    { PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: ':memory:', LOG_LEVEL: 'silent', ...UNREACHABLE_CHAIN },
    60_000,
    cwd,
  )
  try {
    const did = (await (await fetch(`http://127.0.0.1:${server.port}/.well-known/did.json`)).json()) as any
    expect(did.verificationMethod[0].publicKeyJwk).toMatchObject({ kty: 'EC', crv: 'P-256' })
  } finally {
    await server.stop()
  }
  expect(readdirSync(cwd)).toEqual([])
})

test('a server restarted on the same data directory publishes the same key; a malformed key refuses to boot', async () => {
  const data = join(dir, 'data')
  const didOf = async () => {
    const s = await startApp({ env: { DATABASE_PATH: join(data, 'db.sqlite') } })
    const doc = await (await s.fetch('/.well-known/did.json')).json()
    await s.stop()
    return doc
  }
  const before = (await didOf()) as { verificationMethod: Array<{ publicKeyJwk: unknown }> }
  expect(before.verificationMethod[0]!.publicKeyJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' })
  expect(await didOf()).toEqual(before)
  await expect(startApp({ env: { RECEIPT_SIGNING_KEY: '{"kty":"RSA"}' } })).rejects.toThrow(/RECEIPT_SIGNING_KEY/)
})
