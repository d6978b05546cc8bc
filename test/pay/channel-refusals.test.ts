/**
 * Refused batch-settlement payments count against the client like refused exact ones: past INVALID_PAYMENT_LIMIT a
 * minute the client gets 429 before any payment work. Each refusal is the spec's 402 with its reason.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { b64json } from '../../runtime/pay/wire'
import { NETWORK } from '../support/channels'
import { startServerOnChain } from '../support/on-chain'
import { decodeB64Json, type TestServer } from '../support/server'

let chain: DevChain
let s: TestServer

beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, { env: { INVALID_PAYMENT_LIMIT: '3' } })
})
afterAll(async () => {
  await s?.stop()
  await chain?.stop()
})

test('GET on a paid route (the refund door): no payment is the 402 probe; anything but a refund payload is refused', async () => {
  const probe = await s.fetch('/api/v1/slugify')
  expect(probe.status).toBe(402)
  const offered = decodeB64Json(probe.headers.get('payment-required')).accepts
  expect(offered.map((a: { scheme: string }) => a.scheme)).toEqual(['exact', 'batch-settlement'])
  const exactLike = b64json({ x402Version: 2, accepted: offered[0], payload: { signature: '0x00' } })
  const res = await s.fetch('/api/v1/slugify', { headers: { 'payment-signature': exactLike } })
  expect(res.status).toBe(402)
  expect(decodeB64Json(res.headers.get('payment-required')).error).toBe('invalid_batch_settlement_evm_payload_type')
})

test('malformed channel payments are 402 with the spec reason, then 429 past the limit; nothing is charged', async () => {
  const header = b64json({
    x402Version: 2,
    accepted: { scheme: 'batch-settlement', network: NETWORK },
    payload: { type: 'voucher' },
  })
  const send = () => s.post('/api/v1/slugify', { text: 'Hello' }, { 'payment-signature': header })
  // (the GET above was refused without any payment work: not counted)
  for (let i = 0; i < 3; i++) {
    const res = await send()
    expect(res.status).toBe(402)
    expect(decodeB64Json(res.headers.get('payment-required')).error).toBe('invalid_batch_settlement_evm_payload_type')
  }
  const throttled = await send()
  expect(throttled.status).toBe(429)
  expect((await throttled.json()).error.code).toBe('TOO_MANY_INVALID_PAYMENTS')
  expect(await s.booted.storage.channels.totals()).toMatchObject({ channels: 0, earned: 0n })
})

test('a channel payment naming a network without channels counts as a refusal too: 402, then 429 past the limit', async () => {
  const other = await startServerOnChain(chain, { env: { INVALID_PAYMENT_LIMIT: '2' } })
  try {
    const offered = decodeB64Json(
      (await other.post('/api/v1/slugify', { text: 'Hello' })).headers.get('payment-required'),
    ).accepts
    const header = b64json({ x402Version: 2, accepted: { ...offered[1], network: 'eip155:1' }, payload: {} })
    const send = () => other.post('/api/v1/slugify', { text: 'Hello' }, { 'payment-signature': header })
    for (let i = 0; i < 2; i++) {
      const res = await send()
      expect(res.status).toBe(402)
      expect(decodeB64Json(res.headers.get('payment-required')).error).toBe(
        'invalid_batch_settlement_evm_network_mismatch',
      )
    }
    const throttled = await send()
    expect(throttled.status).toBe(429)
    expect((await throttled.json()).error.code).toBe('TOO_MANY_INVALID_PAYMENTS')
  } finally {
    await other.stop()
  }
})
