/**
 * MCP tool calls paid through x402 `batch-settlement` (`_meta["x402/payment"]`, the same doors as HTTP) with the
 * official client (`x402Client` + `@x402/evm/batch-settlement/client`, the only scheme it registers): a deposit,
 * then vouchers; the SettleResponse comes back in `_meta["x402/payment-response"]`; a call that fails after
 * admission charges nothing. At shutdown the claim engine claims and sweeps: payee's delta = swept = the charges.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import { x402Client } from '@x402/fetch'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { channelPayer, channelReceipt, clientFor, hear, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startServerOnChain } from '../support/on-chain'
import type { TestServer } from '../support/server'
import { mcpClient } from './client'

const PRICE = 4200n // test-echo: $0.0042

let chain: DevChain
let s: TestServer
let c: Client

beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, { entries: withEcho(), env: { CHANNEL_MIN_DEPOSIT_USD: '0.1' } })
  c = await mcpClient(s.url, '?tools=all')
  await c.listTools()
})
afterAll(async () => {
  await c?.close()
  await s?.stop()
  await chain?.stop()
})

test('a channel pays MCP tool calls: deposit, then vouchers; a failed call is not charged; claimed and swept at shutdown', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const payer = await channelPayer(chain, 1_000_000n)
  const scheme = clientFor(chain.rpcUrl, payer.key)
  const client = new x402Client().register(NETWORK, scheme)

  const call = async (code: string) => {
    const unpaid = await c.callTool({ name: 'test-echo', arguments: { code } })
    expect(unpaid.isError).toBe(true)
    const required = unpaid.structuredContent as { accepts: Array<{ scheme: string }> }
    expect(required.accepts.map((a) => a.scheme)).toEqual(['exact', 'batch-settlement'])
    const payment = (await client.createPaymentPayload(required as never)) as PaymentPayload
    expect(payment.accepted.scheme).toBe('batch-settlement')
    const r = await c.callTool({ name: 'test-echo', arguments: { code }, _meta: { 'x402/payment': payment } })
    const response = r._meta?.['x402/payment-response'] as SettleResponse | undefined
    if (response?.success) await hear(scheme, payment, payment.accepted, response)
    return { r, response }
  }

  const first = await call('one')
  expect(first.r.isError).toBeFalsy()
  expect(first.r.structuredContent).toEqual({ echo: 'ONE', tier: 'flat' })
  expect(first.response).toMatchObject({ success: true, extra: { chargedAmount: String(PRICE) } })
  expect(first.response!.transaction).toMatch(/^0x[0-9a-f]{64}$/) // the deposit
  for (const code of ['two', 'three']) {
    const { r, response } = await call(code)
    expect(r.isError).toBeFalsy()
    expect(response).toMatchObject({ success: true, transaction: '', extra: { chargedAmount: String(PRICE) } })
    // the signed receipt in _meta: the charge and the channel's cumulative charged amount
    expect(await channelReceipt(s.url, response)).toMatchObject({
      scheme: 'batch-settlement',
      service: 'test-echo',
      amount: String(PRICE),
      transaction: '',
      channel: { cumulative: String(PRICE * (code === 'two' ? 2n : 3n)) },
    })
  }
  const failed = await call('fail')
  expect(failed.r.isError).toBe(true)
  expect(failed.response).toBeUndefined()
  const store = s.booted.storage.channels
  expect((await store.totals()).earned).toBe(3n * PRICE)

  await s.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned: 3n * PRICE, claimed: 3n * PRICE, swept: 3n * PRICE })
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(3n * PRICE)
})
