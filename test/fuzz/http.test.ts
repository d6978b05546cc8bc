/**
 * HTTP-level fuzzing of every registered service: hostile bodies, odd content types and broken payment headers
 * through the real routes. Every answer is a 4xx (or 501/503 for services that are not available) in the one error
 * shape or the 402 challenge shape — never a 500 — and the server stays up.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startServer, type TestServer } from '../support/server'
import { mutations, sample } from '../support/fuzz-cases'

let s: TestServer
beforeAll(async () => {
  s = await startServer({ env: { INVALID_PAYMENT_LIMIT: '0', BODY_LIMIT_BYTES: '262144' } })
})
afterAll(() => s.stop())

const ALLOWED = new Set([400, 402, 413, 415, 422, 501, 503])
const HEADERS = [
  'e30=',
  'not base64 at all',
  Buffer.from('{"x402Version":2}').toString('base64'),
  Buffer.from(
    JSON.stringify({
      x402Version: 2,
      accepted: { scheme: 'exact' },
      payload: { signature: '0x00', authorization: {} },
    }),
  ).toString('base64'),
]

test('every service answers hostile requests with a 4xx in the error shape, never a 5xx', async () => {
  const services = ((await (await fetch(s.url + '/services')).json()) as any).services as any[]
  const bad: string[] = []
  let cases = 0
  for (const svc of services) {
    const schema =
      svc.kind === 'tiered'
        ? { type: 'object', properties: { code: { type: 'string', maxLength: 100000 }, tier: { type: 'string' } } }
        : svc.input_schema
    const base = (svc.examples?.[0]?.input ?? sample(schema)) as Record<string, unknown>
    const bodies: Array<[string, string, string]> = [...mutations(schema, base)]
      .slice(0, 40)
      .map(([n, b]) => [n, JSON.stringify(b), 'application/json'])
    bodies.push(
      ['form body', 'a=1&b=2', 'application/x-www-form-urlencoded'],
      ['truncated json', '{"a": [1, 2', 'application/json'],
      ['invalid utf-8', '\xff\xfe{"a":1}', 'application/json'],
    )
    for (const [name, body, type] of bodies) {
      const r = await fetch(s.url + `/api/v1/${svc.slug}`, {
        method: 'POST',
        body,
        headers: { 'content-type': type, 'payment-signature': HEADERS[cases++ % HEADERS.length] },
      })
      const json = (await r.json().catch(() => null)) as any
      const shapeOk =
        r.status === 402
          ? json?.x402Version === 1 && typeof json?.error === 'string'
          : typeof json?.error?.code === 'string' && typeof json?.request_id === 'string'
      if (!ALLOWED.has(r.status) || !shapeOk)
        bad.push(`${svc.slug} / ${name}: ${r.status} ${JSON.stringify(json)?.slice(0, 120)}`)
    }
  }
  console.log(`http fuzz: ${cases} requests over ${services.length} services`)
  expect(bad.slice(0, 20)).toEqual([])
  expect((await fetch(s.url + '/health')).status).toBe(200)
}, 300_000)
