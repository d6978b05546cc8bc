/**
 * FACILITATOR_URL lists: order, circuit breakers, and the money rule — a /settle goes to the next facilitator
 * only when the previous one certainly did not take it. Local facilitators over real HTTP (Bun.serve).
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { createFacilitatorList } from '../../runtime/pay/facilitator/remote-list'
import { createRemoteFacilitator, NotAccepted } from '../../runtime/pay/facilitator/remote'
import type { DecodedPayment } from '../../runtime/pay/types'
import { requirements } from '../support/pay'

type Handler = (path: string, req: Request) => Response | Promise<Response>
interface Stub {
  url: string
  hits: Record<string, number>
  stop(): void
}
const stubs: Stub[] = []
function stub(handler: Handler): Stub {
  const hits: Record<string, number> = {}
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname.replace(/^\/x402/, '')
      hits[path] = (hits[path] ?? 0) + 1
      return handler(path, req)
    },
  })
  const s = { url: `http://127.0.0.1:${server.port}/x402`, hits, stop: () => server.stop(true) }
  stubs.push(s)
  return s
}
afterAll(() => {
  for (const s of stubs) s.stop()
})

/** A URL nothing listens on (connection refused). */
function deadUrl(): string {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const url = `http://127.0.0.1:${s.port}/x402`
  s.stop(true)
  return url
}

const TX = `0x${'abc'.padStart(64, '0')}`
const ok = () =>
  stub((path) =>
    Response.json(
      path === '/verify'
        ? { isValid: true, payer: '0x1' }
        : path === '/settle'
          ? { success: true, transaction: TX, network: 'eip155:8453' }
          : { kinds: [] },
    ),
  )
const status = (code: number) =>
  stub(() => new Response('{"message":"no"}', { status: code, headers: { 'content-type': 'application/json' } }))
const hang = () => stub(() => new Promise<Response>(() => {}))

const payment = {
  x402Version: 2,
  raw: { x402Version: 2, payload: {} },
  scheme: 'exact',
  network: 'eip155:8453',
  payload: {},
} as unknown as DecodedPayment
const req = requirements()

function list(urls: string[], o: { failures?: number; now?: () => number; settleTimeoutMs?: number } = {}) {
  return createFacilitatorList(
    urls.map((url) =>
      createRemoteFacilitator({ url, verifyTimeoutMs: 5000, settleTimeoutMs: o.settleTimeoutMs ?? 5000 }),
    ),
    { failures: o.failures ?? 3, cooldownMs: 30_000, now: o.now },
  )
}
const submitted: string[] = []
const onSubmitted = (tx: string) => void submitted.push(tx)

describe('verify (no money moves): any failure goes to the next facilitator', () => {
  test('503, 500, 502 and connection refused all fail over; a "no" does not', async () => {
    for (const first of [status(503), status(500), status(502)]) {
      const second = ok()
      expect(await list([first.url, second.url]).verify(payment, req)).toMatchObject({ isValid: true })
      expect([first.hits['/verify'], second.hits['/verify']]).toEqual([1, 1])
    }
    const second = ok()
    expect(await list([deadUrl(), second.url]).verify(payment, req)).toMatchObject({ isValid: true })
    const no = stub(() => Response.json({ isValid: false, invalidReason: 'insufficient_funds' }))
    const other = ok()
    expect(await list([no.url, other.url]).verify(payment, req)).toEqual({
      isValid: false,
      invalidReason: 'insufficient_funds',
    })
    expect(other.hits['/verify']).toBeUndefined()
  })
})

describe('settle: fails over only when the first facilitator certainly did not take it', () => {
  test('connection refused, 401, 403, 429 and 503 go to the next one', async () => {
    const firsts = [deadUrl(), status(401).url, status(403).url, status(429).url, status(503).url]
    for (const first of firsts) {
      const second = ok()
      submitted.length = 0
      expect(await list([first, second.url]).settle(payment, req, onSubmitted)).toMatchObject({
        success: true,
        transaction: TX,
      })
      expect(second.hits['/settle']).toBe(1)
      expect(submitted).toEqual([TX])
    }
  })

  test('500, 502, 504, a timeout or a non-JSON answer may have broadcast: thrown (pending), never sent elsewhere', async () => {
    const ambiguous = [
      status(500),
      status(502),
      status(504),
      stub(() => new Response('<html>oops</html>', { status: 200 })),
    ]
    for (const first of ambiguous) {
      const second = ok()
      const e = await list([first.url, second.url])
        .settle(payment, req, onSubmitted)
        .catch((x) => x)
      expect(e).toBeInstanceOf(Error)
      expect(e).not.toBeInstanceOf(NotAccepted)
      expect(second.hits['/settle']).toBeUndefined()
    }
    const slow = hang()
    const second = ok()
    const e = await list([slow.url, second.url], { settleTimeoutMs: 300 })
      .settle(payment, req, onSubmitted)
      .catch((x) => x)
    expect(e).toBeInstanceOf(Error)
    expect(e).not.toBeInstanceOf(NotAccepted)
    expect(slow.hits['/settle']).toBe(1)
    expect(second.hits['/settle']).toBeUndefined()
  })

  test('a settlement refusal (success false) is an answer, not a failure', async () => {
    const no = stub(() =>
      Response.json(
        { success: false, errorReason: 'invalid_signature', transaction: '', network: 'eip155:8453' },
        { status: 400 },
      ),
    )
    const second = ok()
    expect(await list([no.url, second.url]).settle(payment, req, onSubmitted)).toMatchObject({
      success: false,
      errorReason: 'invalid_signature',
    })
    expect(second.hits['/settle']).toBeUndefined()
  })
})

describe('circuit breaker', () => {
  test('N failures in a row open it for the cooldown; then one call may try again (half-open)', async () => {
    let t = 1_000_000
    const bad = status(503)
    const good = ok()
    const l = list([bad.url, good.url], { failures: 2, now: () => t })
    await l.verify(payment, req)
    expect(l.health!().facilitators![0]).toMatchObject({
      state: 'closed',
      consecutive_failures: 1,
      last_error: expect.stringContaining('503'),
    })
    await l.verify(payment, req)
    expect(l.health!().facilitators![0]).toMatchObject({ state: 'open', consecutive_failures: 2, retry_in_seconds: 30 })
    await l.verify(payment, req)
    await l.settle(payment, req, onSubmitted)
    expect(bad.hits['/verify']).toBe(2)
    expect(bad.hits['/settle']).toBeUndefined()
    expect(good.hits['/verify']).toBe(3)
    expect(l.health!()).toMatchObject({
      ok: true,
      canPay: true,
      facilitators: [{ state: 'open' }, { state: 'closed', consecutive_failures: 0 }],
    })
    t += 30_000
    expect(l.health!().facilitators![0].state).toBe('half-open')
    await l.verify(payment, req)
    expect(bad.hits['/verify']).toBe(3)
    expect(l.health!().facilitators![0].state).toBe('open')
  })

  test('a success closes it again', async () => {
    let fail = true
    const flaky = stub(() => (fail ? new Response('', { status: 503 }) : Response.json({ isValid: true })))
    const l = list([flaky.url, ok().url], { failures: 3 })
    await l.verify(payment, req)
    await l.verify(payment, req)
    fail = false
    await l.verify(payment, req)
    expect(l.health!().facilitators![0]).toEqual({ url: flaky.url, state: 'closed', consecutive_failures: 0 })
  })

  test('every breaker open: refused at once without a request, and /health says paid calls cannot be paid', async () => {
    const a = status(503)
    const b = status(503)
    const l = list([a.url, b.url], { failures: 1 })
    await expect(l.verify(payment, req)).rejects.toThrow()
    const hits = [a.hits['/verify'], b.hits['/verify']]
    expect(hits).toEqual([1, 1])
    const e = await l.settle(payment, req, onSubmitted).catch((x) => x)
    expect(e).toBeInstanceOf(NotAccepted)
    expect(a.hits['/settle'] ?? 0).toBe(0)
    expect(b.hits['/settle'] ?? 0).toBe(0)
    expect(l.health!()).toMatchObject({
      ok: false,
      canPay: false,
      detail: expect.stringContaining('every facilitator'),
    })
  })

  test('/health shows facilitator URLs without credentials or query strings', async () => {
    const s = ok()
    const u = new URL(s.url)
    const l = list([`http://user:hunter2@${u.host}/x402?key=sekrit`])
    await l.verify(payment, req)
    const text = JSON.stringify(l.health!())
    expect(text).toContain(`http://${u.host}/x402`)
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('sekrit')
  })
})
