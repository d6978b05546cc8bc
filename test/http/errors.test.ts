import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeB64Json, post, refusingFacilitator, startApp, startServer, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'
import { signPayment } from '../support/pay'
import { generatePrivateKey } from 'viem/accounts'

// A syntactically present but worthless payment header: it gets requests past the 402 so that body errors
// (which are checked before any payment work) can be seen. The facilitator must never be called.
const JUNK = { 'payment-signature': 'e30=' }
const facilitator = refusingFacilitator()
// `s` listens on a socket (body limits, header limits); `a` is the same app answering in-process, for everything
// where the socket is not the subject.
let s: TestServer
let a: TestServer
beforeAll(async () => {
  s = await startServer({ entries: withEcho(), facilitator, env: { BODY_LIMIT_BYTES: '4096' } })
  a = await startApp({ entries: withEcho(), facilitator, env: { BODY_LIMIT_BYTES: '4096' } })
})
afterAll(async () => {
  await s.stop()
  await a.stop()
})

const shape = (b: any) => {
  expect(typeof b.error.code).toBe('string')
  expect(typeof b.error.message).toBe('string')
  expect(b.request_id).toMatch(/^req_[0-9a-f]{20}$/)
}

describe('one error shape, clear 4xx for client mistakes', () => {
  test('404 for unknown paths', async () => {
    const r = await a.fetch('/api/v1/no-such-service', { method: 'POST' })
    expect(r.status).toBe(404)
    const b = await r.json()
    shape(b)
    expect(b.error.code).toBe('NOT_FOUND')
  })
  test('405 for GET on a paid route', async () => {
    const r = await a.fetch('/api/v1/slugify')
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toContain('POST')
  })
  test('413 for a body over the limit, announced or streamed', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(10_000) })
    const r = await post(s.url + '/api/v1/slugify', big)
    expect(r.status).toBe(413)
    const b = await r.json()
    shape(b)
    expect(b.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit_bytes: 4096 })
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode('x'.repeat(1000)))
        c.close()
      },
    })
    // a streamed body is only read on a paid attempt (an unpaid one gets the 402 without reading it)
    const r2 = await fetch(s.url + '/api/v1/slugify', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json', ...JUNK },
    })
    expect(r2.status).toBe(413)
  })
  test('415 for a non-JSON body on a paid attempt', async () => {
    const r = await a.post('/api/v1/slugify', 'text=hi', {
      'content-type': 'application/x-www-form-urlencoded',
      ...JUNK,
    })
    expect(r.status).toBe(415)
    const b = await r.json()
    shape(b)
    expect(b.error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })
  test('400 for malformed JSON', async () => {
    const r = await a.post('/api/v1/slugify', '{"text": ', JUNK)
    expect(r.status).toBe(400)
    expect((await r.json()).error.code).toBe('INVALID_JSON')
  })
  test('422 names the failing fields, without dumping the schema', async () => {
    const r = await a.post('/api/v1/test-echo', { language: 5 }, JUNK)
    expect(r.status).toBe(422)
    const b = await r.json()
    shape(b)
    expect(b.error.code).toBe('INVALID_INPUT')
    const paths = b.error.details.map((d: any) => d.path)
    expect(paths).toContain('/code')
    expect(paths).toContain('/language')
    expect(JSON.stringify(b)).not.toContain('"anyOf"')
  })
  test('422 for a body that is not an object', async () => {
    const r = await a.post('/api/v1/slugify', '[1,2]', JUNK)
    expect(r.status).toBe(422)
  })
  test('422 for an unknown tier, from the query or the body', async () => {
    const services = (await (await a.fetch('/services')).json()) as any
    const tiered = services.services.find((x: any) => x.kind === 'tiered' && x.available)
    if (!tiered) return // no model configured here: tiered services answer 503 first (tested elsewhere)
    expect((await a.post(`/api/v1/${tiered.slug}?tier=gold`, { code: 'x' })).status).toBe(422)
    expect((await a.post(`/api/v1/${tiered.slug}`, { code: 'x', tier: 'gold' })).status).toBe(422)
  })
  test('unbuilt or model-less services answer before any payment is asked', async () => {
    const services = ((await (await a.fetch('/services')).json()) as any).services
    for (const svc of services.filter((x: any) => !x.available)) {
      const r = await a.post(`/api/v1/${svc.slug}`, {})
      expect([501, 503]).toContain(r.status)
      expect(r.headers.get('payment-required')).toBeNull()
    }
  })
  test('a malformed payment header is a 402 with a reason, never a 500', async () => {
    for (const bad of [
      '%%%notbase64',
      'bm90IGpzb24=',
      Buffer.from('[]').toString('base64'),
      Buffer.from(JSON.stringify({ x402Version: 2, accepted: { scheme: 'upto' }, payload: {} })).toString('base64'),
      Buffer.from(JSON.stringify({ x402Version: 7 })).toString('base64'),
    ]) {
      const r = await a.post('/api/v1/test-echo', { code: 'hi' }, { 'payment-signature': bad })
      expect(r.status).toBe(402)
      const b = await r.json()
      expect(typeof b.reason).toBe('string')
      expect(r.headers.get('payment-required')).toBeTruthy()
    }
    expect(facilitator.calls).toBe(0)
  })
  test('every response has nosniff and a request id', async () => {
    for (const r of [await a.fetch('/health'), await a.post('/api/v1/slugify', {}), await a.fetch('/nope')]) {
      expect(r.headers.get('x-content-type-options')).toBe('nosniff')
    }
    expect((await a.post('/api/v1/slugify', {})).headers.get('x-request-id')).toMatch(/^req_/)
  })
})

describe('abuse', () => {
  test('refusals that cost verification work are throttled per client; cheap refusals cost nothing and are not counted', async () => {
    let calls = 0
    const f = {
      kind: 'remote' as const,
      async verify() {
        calls++
        return { isValid: false, invalidReason: 'invalid_exact_evm_insufficient_balance' }
      },
      async settle(): Promise<never> {
        throw new Error('never settles')
      },
      async status() {
        return { state: 'unknown' as const }
      },
    }
    const t = await startServer({ entries: withEcho(), facilitator: f, env: { INVALID_PAYMENT_LIMIT: '3' } })
    try {
      // malformed headers are refused locally: never counted, never reach the facilitator
      for (let i = 0; i < 6; i++)
        expect((await post(t.url + '/api/v1/test-echo', { code: 'x' }, { 'payment-signature': 'e30=' })).status).toBe(
          402,
        )
      expect(calls).toBe(0)
      const req = decodeB64Json((await post(t.url + '/api/v1/test-echo', {})).headers.get('payment-required'))
        .accepts[0]
      const codes: number[] = []
      for (let i = 0; i < 5; i++)
        codes.push(
          (
            await post(
              t.url + '/api/v1/test-echo',
              { code: 'x' },
              { 'payment-signature': await signPayment({ key: generatePrivateKey(), requirements: req }) },
            )
          ).status,
        )
      expect(codes).toEqual([402, 402, 402, 429, 429])
      expect(calls).toBe(3)
      const r = await post(t.url + '/api/v1/test-echo', { code: 'x' }, { 'payment-signature': 'e30=' })
      expect(r.status).toBe(429)
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
      // unpaid challenges are not throttled
      expect((await post(t.url + '/api/v1/test-echo', {})).status).toBe(402)
    } finally {
      await t.stop()
    }
  })
})

describe('slow clients', () => {
  test('a body that never finishes is cut off with 408', async () => {
    const t = await startServer({ entries: withEcho(), env: { BODY_TIMEOUT_MS: '300' } })
    try {
      let ctl!: ReadableStreamDefaultController<Uint8Array>
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          ctl = c
          c.enqueue(new TextEncoder().encode('{"code":'))
        },
      })
      const started = Date.now()
      const r = await fetch(t.url + '/api/v1/test-echo', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'payment-signature': 'e30=' },
      })
      expect(r.status).toBe(408)
      expect(Date.now() - started).toBeLessThan(5000)
      try {
        ctl.close()
      } catch {
        /* the server already hung up */
      }
    } finally {
      await t.stop()
    }
  })
  test('oversized headers are refused', async () => {
    const r = await fetch(s.url + '/health', { headers: { 'x-big': 'a'.repeat(64 * 1024) } })
    expect(r.status).toBe(431)
  })
})

test('numbers beyond the double range are a 422, not Infinity', async () => {
  const r = await a.post('/api/v1/slugify', '{"text": "a", "n": [1e400]}', { 'payment-signature': 'e30=' })
  expect(r.status).toBe(422)
  expect(((await r.json()) as any).error.details[0].path).toBe('/n/0')
})
