/**
 * The official client pays every service of the catalog both ways over MCP (issue #26): each service, each tier of a
 * tiered one, called as its own tool (`?tools=all`) by the MCP SDK client, once paid with `exact`
 * (`@x402/evm/exact/client`) and once by channel (`@x402/evm/batch-settlement/client`: one payer, one channel, a
 * deposit on the first call then vouchers), each payload made by `x402Client.createPaymentPayload` from the unpaid
 * call's PaymentRequired and sent in `_meta["x402/payment"]`, as @x402/mcp does. Models, web pages and live-data
 * upstreams are loopback fakes scripted from each service's fixtures (test/support/catalog-calls.ts). Each call: an
 * answer that matches the declared output, a successful `_meta["x402/payment-response"]`; a voucher's
 * `chargedAmount` is the price, or for a model tier the share of it the tokens took. Money: exact moves the sum of
 * the prices; at shutdown the channel is claimed and swept, payee's delta = swept = the sum of the charges = /stats's
 * channel figures, and /stats revenue = the ledger = the exact sum.
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
import { atomicToUsd } from '../../runtime/pay/amount'
import {
  answerProblems,
  catalogCalls,
  catalogWorld,
  channelTally,
  exactProblems,
  officialClient,
  sum,
  type CatalogCall,
} from '../support/catalog-calls'
import { entries } from '../support/entries'
import { channelPayer, clientFor, hear } from '../support/channels'
import { startServerOnChain, stopAndTally } from '../support/on-chain'
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
 * One paid tool call of `call`: the unpaid call's PaymentRequired offers both schemes at the price, `client` makes
 * the payload, the paid call answers. `heard` gets a successful settle response (a channel client reads it).
 */
async function paidToolCall(
  client: x402Client,
  call: CatalogCall,
  problems: string[],
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
  const r = await c.callTool({ name: call.slug, arguments: args, _meta: { 'x402/payment': payment } })
  const body = r.structuredContent ?? textJson(r)
  const bad = [...answerProblems(call, r.isError ? 'isError' : 200, body), ...world.problems(call)]
  problems.push(...bad)
  const response = r._meta?.['x402/payment-response'] as SettleResponse | undefined
  if (!response?.success) problems.push(`${call.label}: no successful x402/payment-response`)
  else await heard?.(payment, response)
  return { ok: !bad.length && Boolean(response?.success), body, response }
}

test(`the official exact client pays all ${calls.length} calls of the catalog over MCP`, async () => {
  // every service of the catalog, each tier of the tiered ones (analysis and model services: quick, standard, pro)
  expect(new Set(calls.map((c) => c.slug))).toEqual(new Set(entries.map((e) => e.manifest.slug)))
  expect(calls.filter((c) => c.tiered).length).toBe(3 * entries.filter((e) => e.manifest.kind === 'tiered').length)
  expect(calls.length).toBeGreaterThan(130)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const client = officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls)
  const problems: string[] = []
  let paid = 0
  for (const call of calls) {
    const { ok, body, response } = await paidToolCall(client, call, problems)
    const bad = response?.success ? exactProblems(call, body, response) : []
    problems.push(...bad)
    if (ok && !bad.length) paid++
  }
  expect(problems).toEqual([])
  expect(paid).toBe(calls.length)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(total)
}, 300_000)

test(`the official channel client pays all ${calls.length} calls of the catalog over MCP: one deposit, then vouchers; claimed and swept at shutdown`, async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const payer = await channelPayer(chain, 4n * total)
  const scheme: BatchSettlementEvmScheme = clientFor(chain.rpcUrl, payer.key)
  const client = officialClient(scheme, calls)
  const problems: string[] = []
  const tally = channelTally()
  let paid = 0
  for (const call of calls) {
    const { ok, body, response } = await paidToolCall(client, call, problems, (payment, response) =>
      hear(scheme, payment, payment.accepted, response),
    )
    const bad = response?.success ? tally.check(call, body, response) : []
    problems.push(...bad)
    if (ok && !bad.length) paid++
  }
  expect(problems).toEqual([])
  expect(paid).toBe(calls.length)
  // the model tiers charged by tokens used: less than their prices
  const charged = tally.charged
  expect(charged).toBeLessThan(total)
  expect(charged).toBeGreaterThan(0n)

  // shutdown: the claim engine claims the channel and sweeps to PAY_TO
  const store = s.booted.storage.channels
  expect((await store.totals()).earned).toBe(charged)
  await s.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned: charged, claimed: charged, swept: charged })
  const figures = ((await (await fetch(`${s.url}/stats`)).json()) as { channels: Record<string, unknown> }).channels
  expect(figures).toMatchObject({
    channels: 1,
    paid_calls: calls.length,
    earned_atomic: String(charged),
    claimed_atomic: String(charged),
    swept_atomic: String(charged),
  })
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(charged)

  // the books of the whole file: exact revenue (/stats = ledger) is the sum of the prices, plus the swept channel
  stopped = true
  const books = await stopAndTally(chain, [s], payeeBefore)
  expect(books.stats).toBe(total)
  expect(books.ledger).toBe(total)
  expect(books.delta).toBe(total + charged)
}, 300_000)
