/**
 * The official client pays every service of the catalog both ways over MCP (issue #26): each service, each tier of a
 * tiered one, called as its own tool (`?tools=all`) by the MCP SDK client, once paid with `exact`
 * (`@x402/evm/exact/client`) and once by channel (`@x402/evm/batch-settlement/client`: one payer, one channel, a
 * deposit on the first call then vouchers), each payload made by `x402Client.createPaymentPayload` from the unpaid
 * call's PaymentRequired and sent in `_meta["x402/payment"]`, as @x402/mcp does. Models, web pages and live-data
 * upstreams are loopback fakes scripted from each service's fixtures (test/support/catalog-calls.ts). Each call: an
 * answer that matches the declared output, a successful `_meta["x402/payment-response"]`; a voucher's
 * `chargedAmount` is the price, or for a model tier the share of it the tokens took. The model-backed calls are paid
 * both ways again with `_meta.progressToken` (streamed: progress notifications, then the result). Money: exact moves
 * the sum of the prices; at shutdown the channels are claimed and swept, payee's delta = swept = the sum of the
 * charges = /stats's channel figures, and /stats revenue = the ledger = the exact sum.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types'
import type { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import type { x402Client } from '@x402/fetch'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { atomicToUsd } from '../../runtime/catalog/amount'
import {
  answerProblems,
  catalogCalls,
  catalogWorld,
  channelTally,
  closeBooks,
  exactProblems,
  movedBooks,
  officialClient,
  payEach,
  sum,
  type CatalogCall,
} from '../support/catalog-calls'
import { entries } from '../support/entries'
import { channelPayer, clientFor, hear } from '../support/channels'
import { startServerOnChain } from '../support/on-chain'
import type { TestServer } from '../support/server'
import { mcpClient, textJson } from './client'

const calls = catalogCalls()
const total = sum(calls.map((c) => c.price))

let chain: DevChain
let world: ReturnType<typeof catalogWorld>
let s: TestServer
let c: Client
let payeeBefore: bigint
let stopped = false
const moved = movedBooks()
/** The calls that can be answered as a stream (progress notifications): the model-backed services. */
const streamable = calls.filter((c) => c.entry.manifest.needs?.includes('model'))

beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10n * total })
  world = catalogWorld()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, {
    // one deposit covers every call of the catalog: the first call deposits, every other one is a voucher
    env: { ...world.env, CHANNEL_MIN_DEPOSIT_USD: atomicToUsd(total) },
  })
  c = await mcpClient(s.url, '?tools=all')
  await c.listTools() // caches every outputSchema: the client then validates each structuredContent against it
})
afterAll(async () => {
  await c?.close()
  if (!stopped) await s?.stop()
  world?.close()
  await chain?.stop()
})

/**
 * One paid tool call of `call` (asking for progress when `stream`): the unpaid call's PaymentRequired offers both
 * schemes at the price, `client` makes the payload, the paid call answers. `heard` gets a successful settle response
 * (a channel client reads it).
 */
async function paidToolCall(
  client: x402Client,
  call: CatalogCall,
  problems: string[],
  stream: boolean,
  heard?: (payment: PaymentPayload, response: SettleResponse) => Promise<void>,
) {
  const input = world.stage(call)
  const args = call.tiered ? { ...input, tier: call.tier } : input
  const unpaid = await c.callTool({ name: call.slug, arguments: args })
  const required = unpaid.structuredContent as PaymentRequired | undefined
  const terms = (required?.accepts ?? []).map((a) => `${a.scheme} ${a.amount}`)
  if (!unpaid.isError || terms.join() !== `exact ${call.price},batch-settlement ${call.price}`) {
    problems.push(`${call.label}: the unpaid call answered ${JSON.stringify(unpaid).slice(0, 200)}`)
    return { ok: false }
  }
  const payment = (await client.createPaymentPayload(required as never)) as PaymentPayload
  let progress = 0
  const r = await c.callTool(
    { name: call.slug, arguments: args, _meta: { 'x402/payment': payment } },
    undefined,
    stream ? { onprogress: () => void progress++ } : undefined,
  )
  const body = r.structuredContent ?? textJson(r)
  const bad = [...answerProblems(call, r.isError ? 'isError' : 200, body), ...world.problems(call)]
  // the answer was streamed: its text came as progress notifications first
  if (stream && progress === 0) bad.push(`${call.label}: no progress notification`)
  problems.push(...bad)
  const response = r._meta?.['x402/payment-response'] as SettleResponse | undefined
  if (!response?.success) problems.push(`${call.label}: no successful x402/payment-response`)
  else await heard?.(payment, response)
  return { ok: !bad.length && Boolean(response?.success), body, response }
}

/** Pays every call of `list` with exact; the payee's delta is the sum of their prices. */
async function payExact(list: CatalogCall[], stream: boolean) {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const client = officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls)
  await payEach(list, (call, problems) => paidToolCall(client, call, problems, stream), exactProblems)
  const prices = sum(list.map((c) => c.price))
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(prices)
  moved.exact += prices
}

/** Pays every call of `list` by channel (a new payer: one deposit, then vouchers); returns what it was charged. */
async function payByChannel(list: CatalogCall[], stream: boolean) {
  const payer = await channelPayer(chain, 2n * total)
  const scheme: BatchSettlementEvmScheme = clientFor(chain.rpcUrl, payer.key)
  const client = officialClient(scheme, calls)
  const tally = channelTally()
  // the client reads each settle response from _meta itself (as @x402/mcp's client does), so its next voucher is current
  const heard = (payment: PaymentPayload, response: SettleResponse) => hear(scheme, payment, payment.accepted, response)
  await payEach(list, (call, problems) => paidToolCall(client, call, problems, stream, heard), tally.check)
  moved.charged += tally.charged
  moved.channelCalls += list.length
  moved.channels++
  return tally.charged
}

test(`the official exact client pays all ${calls.length} calls of the catalog over MCP`, async () => {
  // every service of the catalog, each tier of the tiered ones (analysis and model services: quick, standard, pro)
  expect(new Set(calls.map((c) => c.slug))).toEqual(new Set(entries.map((e) => e.manifest.slug)))
  expect(calls.filter((c) => c.tiered).length).toBe(3 * entries.filter((e) => e.manifest.kind === 'tiered').length)
  expect(calls.length).toBeGreaterThan(130)
  await payExact(calls, false)
}, 300_000)

// exact first: the claim engine may sweep channel charges to the payee at any time once channels are paid
test(`the official exact client pays the ${streamable.length} model calls with progress (streamed)`, async () => {
  expect(streamable.length).toBeGreaterThan(30)
  await payExact(streamable, true)
}, 300_000)

test(`the official channel client pays all ${calls.length} calls of the catalog over MCP: one deposit, then vouchers`, async () => {
  const charged = await payByChannel(calls, false)
  // the model tiers charged by tokens used: less than their prices
  expect(charged).toBeLessThan(total)
  expect(charged).toBeGreaterThan(0n)
}, 300_000)

test(`the official channel client pays the ${streamable.length} model calls with progress (streamed)`, async () => {
  await payByChannel(streamable, true)
}, 300_000)

test('the books: the channels claimed and swept at shutdown; payee delta = exact + swept, /stats = ledger', async () => {
  expect(moved.channels).toBe(2)
  expect(moved.channelCalls).toBe(calls.length + streamable.length)
  stopped = true
  // each channel's one deposit is the announced minimum (CHANNEL_MIN_DEPOSIT_USD), which covers all its calls
  await closeBooks(chain, s, moved, payeeBefore, total)
}, 300_000)
