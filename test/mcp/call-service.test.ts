/**
 * call_service on a real local Base replica: the default (small) MCP tool set reaches a service it does not list,
 * paid with the x402 MCP flow (unpaid call -> PaymentRequired -> signed PaymentPayload in _meta["x402/payment"])
 * at exactly that service's price and tier, with the books exact at the end.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { TestServer } from '../support/server'
import { startServerOnChain, stopAndTally } from '../support/on-chain'
import { withEcho } from '../support/extra-service'
import { mcpClient } from './client'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let s: TestServer
let c: Client
let payeeBefore: bigint

beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, { entries: withEcho() })
  c = await mcpClient(s.url)
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
}, 60_000)
afterAll(async () => {
  await c?.close()
  const books = await stopAndTally(chain, [s], payeeBefore)
  await chain?.stop()
  expect(books.delta).toBe(1000n + 10_000n)
  expect(books.stats).toBe(books.delta)
  expect(books.ledger).toBe(books.delta)
})

const payer = () =>
  new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey as Hex)))

/** The x402 MCP flow through call_service: unpaid, sign the PaymentRequired, repeat with the payment. */
async function payViaCallService(slug: string, args: Record<string, unknown>) {
  const params = { name: 'call_service', arguments: { slug, arguments: args } }
  const unpaid = await c.callTool(params)
  expect(unpaid.isError).toBe(true)
  const payment = await payer().createPaymentPayload(unpaid.structuredContent as never)
  return c.callTool({ ...params, _meta: { 'x402/payment': payment } })
}

test('slugify, not in the default list, is paid through call_service at exactly its price', async () => {
  expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('slugify')
  const payerBefore = await usdcBalance(chain.rpcUrl, chain.payer.address)
  const r = await payViaCallService('slugify', { text: 'Called by slug' })
  expect(r.isError).toBeFalsy()
  expect(r.structuredContent).toEqual({ slug: 'called-by-slug', length: 14 })
  const receipt = r._meta?.['x402/payment-response'] as { success: boolean; transaction: string }
  expect(receipt.success).toBe(true)
  expect(
    sqliteOf(s.booted)
      .ledger.byState(['settled'])
      .find((x) => x.tx_hash === receipt.transaction),
  ).toMatchObject({
    slug: 'slugify',
    amount: '1000',
  })
  expect(payerBefore - (await usdcBalance(chain.rpcUrl, chain.payer.address))).toBe(1000n)
}, 60_000)

test('a tiered service through call_service charges the tier in its arguments', async () => {
  const r = await payViaCallService('test-explain', { code: 'a', tier: 'quick' })
  expect(r.isError).toBeFalsy()
  expect(r.structuredContent).toMatchObject({ service: 'test-explain', tier: 'quick' })
  expect(
    sqliteOf(s.booted)
      .ledger.byState(['settled'])
      .filter((x) => x.slug === 'test-explain'),
  ).toHaveLength(1)
}, 60_000)

test('a payment signed for one service is refused for another through call_service; nothing moves', async () => {
  const unpaid = await c.callTool({ name: 'call_service', arguments: { slug: 'slugify', arguments: { text: 'a' } } })
  const payment = await payer().createPaymentPayload(unpaid.structuredContent as never)
  const payeeNow = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const other = await c.callTool({
    name: 'call_service',
    arguments: { slug: 'test-echo', arguments: { code: 'a' } },
    _meta: { 'x402/payment': payment },
  })
  expect(other.isError).toBe(true)
  expect((other.structuredContent as { error: string }).error).toBeString()
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeNow)
}, 60_000)
