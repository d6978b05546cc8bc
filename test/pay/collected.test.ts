/** The answers to a repeated payment: kept 200 with the first receipt, 402 settlement_pending, 409s in the error shape. */
import { expect, test } from 'bun:test'
import { collectedResponse } from '../../runtime/pay/server/collected-answer'

const refuse = (reason: string, message: string, headers: Record<string, string>) =>
  new Response(JSON.stringify({ reason, message }), { status: 402, headers: { 'payment-required': 'x', ...headers } })

test('a kept result is the 200 body with the receipt under the header of the request version', async () => {
  const v2 = collectedResponse({ kind: 'result', body: '{"a":1}', receipt: 'UkVDRUlQVA==' }, 'req_1', 2, refuse)
  expect(v2.status).toBe(200)
  expect(await v2.text()).toBe('{"a":1}')
  expect(v2.headers.get('payment-response')).toBe('UkVDRUlQVA==')
  expect(v2.headers.get('x-request-id')).toBe('req_1')
  expect(v2.headers.get('cache-control')).toBe('private, no-store')
  const v1 = collectedResponse({ kind: 'result', body: '{}', receipt: 'Ug==' }, 'req_2', 1, refuse)
  expect(v1.headers.get('x-payment-response')).toBe('Ug==')
  expect(v1.headers.get('payment-response')).toBeNull()
})

test('pending is a 402 settlement_pending with Retry-After; conflicts and lost bodies are 409 in the error shape', async () => {
  const p = collectedResponse({ kind: 'pending', retryAfter: 7 }, 'req_3', 2, refuse)
  expect(p.status).toBe(402)
  expect(p.headers.get('retry-after')).toBe('7')
  expect(((await p.json()) as { reason: string }).reason).toBe('settlement_pending')
  for (const [kind, code] of [
    ['conflict', 'PAYMENT_IDENTIFIER_CONFLICT'],
    ['gone', 'RESULT_NOT_KEPT'],
  ] as const) {
    const r = collectedResponse({ kind }, 'req_4', 2, refuse)
    expect(r.status).toBe(409)
    const j = (await r.json()) as { error: { code: string; message: string }; request_id: string }
    expect(j.error.code).toBe(code)
    expect(j.error.message.length).toBeGreaterThan(10)
    expect(j.request_id).toBe('req_4')
  }
})
