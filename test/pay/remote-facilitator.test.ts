/** FACILITATOR_URL mode against the official x402 facilitator over HTTP, settling on a real local chain. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { createRemoteFacilitator } from '../../runtime/pay/facilitator/remote'
import { decodeB64Json, post, type TestServer, requirementsAt } from '../support/server'
import { startOfficialFacilitator, type OfficialFacilitator } from '../support/official-facilitator'
import { signPayment } from '../support/pay'
import { payingFetch } from '../support/paying-fetch'
import { startServerOnChain } from '../support/on-chain'

let chain: DevChain
let fac: OfficialFacilitator
let s: TestServer
beforeAll(async () => {
  chain = await startDevChain()
  fac = startOfficialFacilitator(chain.rpcUrl, chain.settler.privateKey as Hex)
  s = await startServerOnChain(chain, {
    facilitator: createRemoteFacilitator({ url: fac.url, authHeader: 'Bearer test-token' }),
  })
})
afterAll(async () => {
  await s?.stop()
  fac?.stop()
  await chain?.stop()
})

test('the official client pays through the official facilitator: verified, settled on chain, receipt returned', async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const pay = payingFetch(chain.payer.privateKey as Hex)
  const r = await pay(s.url + '/api/v1/slugify', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Remote facilitator' }),
  })
  expect(r.status).toBe(200)
  expect(await r.json()).toEqual({ slug: 'remote-facilitator', length: 18 })
  const receipt = decodeB64Json(r.headers.get('payment-response'))
  expect(receipt).toMatchObject({ success: true, network: 'eip155:8453' })
  expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(1000n)
  expect(fac.calls.verify).toBe(1)
  expect(fac.calls.settle).toBe(1)
  expect(fac.auth.every((a) => a === 'Bearer test-token')).toBe(true)
})

test('a forged payment never reaches the facilitator; a replay is refused locally', async () => {
  const calls = { ...fac.calls }
  const req = await requirementsAt(s.url + '/api/v1/slugify')
  const underpay = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req, value: '999' })
  expect((await post(s.url + '/api/v1/slugify', { text: 'x' }, { 'payment-signature': underpay })).status).toBe(402)
  const ok = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
  expect((await post(s.url + '/api/v1/slugify', { text: 'x' }, { 'payment-signature': ok })).status).toBe(200)
  expect((await post(s.url + '/api/v1/slugify', { text: 'y' }, { 'payment-signature': ok })).status).toBe(402)
  // the identical payment for the identical request collects the kept result: no facilitator call either
  expect((await post(s.url + '/api/v1/slugify', { text: 'x' }, { 'payment-signature': ok })).status).toBe(200)
  expect(fac.calls.verify - calls.verify).toBe(1)
  expect(fac.calls.settle - calls.settle).toBe(1)
})

test('facilitator unreachable: 503, nothing served, nothing moved', async () => {
  const dead = await startServerOnChain(chain, {
    facilitator: createRemoteFacilitator({ url: 'http://127.0.0.1:9', verifyTimeoutMs: 2000 }),
  })
  try {
    const req = await requirementsAt(dead.url + '/api/v1/slugify')
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const r = await post(
      dead.url + '/api/v1/slugify',
      { text: 'no facilitator' },
      { 'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }) },
    )
    expect(r.status).toBe(503)
    expect(JSON.stringify(await r.json())).not.toContain('no-facilitator')
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
  } finally {
    await dead.stop()
  }
})
