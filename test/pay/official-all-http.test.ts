/**
 * The official client pays every service of the catalog both ways over HTTP (issue #26): each service, each tier of
 * a tiered one, once with `exact` (`@x402/fetch` + `@x402/evm/exact/client`) and once by channel (`@x402/fetch` +
 * `@x402/evm/batch-settlement/client`: one payer, one channel, a deposit on the first call then vouchers), against
 * the real server on the dev chain; models, web pages and live-data upstreams are loopback fakes scripted from each
 * service's fixtures (test/support/catalog-calls.ts). Each call: 200, the declared output, a successful
 * PAYMENT-RESPONSE; a voucher's `chargedAmount` is the price, or for a model tier the share of it the tokens took.
 * The model-backed calls are paid both ways again as streams (Server-Sent Events, the settle response in the result
 * event).
 * Money: exact moves the sum of the prices; at shutdown the channels are claimed and swept, payee's delta = swept = the
 * sum of the charges = /stats's channel figures, and /stats revenue = the ledger = the exact sum.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { atomicToUsd } from '../../runtime/catalog/amount'
import {
  catalogCalls,
  catalogWorld,
  channelTally,
  closeBooks,
  exactProblems,
  movedBooks,
  officialClient,
  paidHttpCall,
  payEach,
  sum,
  type CatalogCall,
} from '../support/catalog-calls'
import { entries } from '../support/entries'
import { channelPayer, clientFor } from '../support/channels'
import { startServerOnChain } from '../support/on-chain'
import type { TestServer } from '../support/server'

const calls = catalogCalls()
const total = sum(calls.map((c) => c.price))

let chain: DevChain
let world: ReturnType<typeof catalogWorld>
let s: TestServer
let payeeBefore: bigint
let stopped = false
const moved = movedBooks()
/** The calls that can be answered as a stream (Server-Sent Events): the model-backed services. */
const streamable = calls.filter((c) => c.entry.manifest.needs?.includes('model'))

beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10n * total })
  world = catalogWorld()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, {
    // one deposit covers every call of the catalog: the first call deposits, every other one is a voucher
    env: { ...world.env, CHANNEL_MIN_DEPOSIT_USD: atomicToUsd(total) },
  })
})
afterAll(async () => {
  if (!stopped) await s?.stop()
  world?.close()
  await chain?.stop()
})

/** Pays every call of `list` with exact; the payee's delta is the sum of their prices. */
async function payExact(list: CatalogCall[], stream: boolean) {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const client = officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls)
  const pay = wrapFetchWithPayment(fetch, client)
  await payEach(list, (call, problems) => paidHttpCall(world, s.url, pay, call, problems, stream), exactProblems)
  const prices = sum(list.map((c) => c.price))
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(prices)
  moved.exact += prices
}

/** Pays every call of `list` by channel (a new payer: one deposit, then vouchers); returns what it was charged. */
async function payByChannel(list: CatalogCall[], stream: boolean) {
  const payer = await channelPayer(chain, 2n * total)
  const pay = wrapFetchWithPayment(fetch, officialClient(clientFor(chain.rpcUrl, payer.key), calls))
  const tally = channelTally()
  await payEach(list, (call, problems) => paidHttpCall(world, s.url, pay, call, problems, stream), tally.check)
  moved.charged += tally.charged
  moved.channelCalls += list.length
  moved.channels++
  return tally.charged
}

test(`the official exact client pays all ${calls.length} calls of the catalog over HTTP`, async () => {
  // every service of the catalog, each tier of the tiered ones (analysis and model services: quick, standard, pro)
  expect(new Set(calls.map((c) => c.slug))).toEqual(new Set(entries.map((e) => e.manifest.slug)))
  expect(calls.filter((c) => c.tiered).length).toBe(3 * entries.filter((e) => e.manifest.kind === 'tiered').length)
  expect(calls.length).toBeGreaterThan(130)
  await payExact(calls, false)
}, 300_000)

// exact first: the claim engine may sweep channel charges to the payee at any time once channels are paid
test(`the official exact client pays the ${streamable.length} model calls answered as streams`, async () => {
  expect(streamable.length).toBeGreaterThan(30)
  await payExact(streamable, true)
}, 300_000)

test(`the official channel client pays all ${calls.length} calls of the catalog over HTTP: one deposit, then vouchers`, async () => {
  const charged = await payByChannel(calls, false)
  // the model tiers charged by tokens used: less than their prices
  expect(charged).toBeLessThan(total)
  expect(charged).toBeGreaterThan(0n)
}, 300_000)

test(`the official channel client pays the ${streamable.length} model calls answered as streams`, async () => {
  // the client reads no PAYMENT-RESPONSE header on a stream: each next voucher is behind and goes through the
  // corrective 402 (docs/channels.md), which @x402/fetch follows
  await payByChannel(streamable, true)
}, 300_000)

test('the books: the channels claimed and swept at shutdown; payee delta = exact + swept, /stats = ledger', async () => {
  expect(moved.channels).toBe(2)
  expect(moved.channelCalls).toBe(calls.length + streamable.length)
  stopped = true
  // each channel's one deposit is the announced minimum (CHANNEL_MIN_DEPOSIT_USD), which covers all its calls
  await closeBooks(chain, s, moved, payeeBefore, total)
}, 300_000)
