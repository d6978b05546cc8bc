/**
 * The official client pays every service of the catalog both ways over HTTP (issue #26): each service, each tier of
 * a tiered one, once with `exact` (`@x402/fetch` + `@x402/evm/exact/client`) and once by channel (`@x402/fetch` +
 * `@x402/evm/batch-settlement/client`: one payer, one channel, a deposit on the first call then vouchers), against
 * the real server on the dev chain; models, web pages and live-data upstreams are loopback fakes scripted from each
 * service's fixtures (test/support/catalog-calls.ts). Each call: 200, the declared output, a successful
 * PAYMENT-RESPONSE; a voucher's `chargedAmount` is the price, or for a model tier the share of it the tokens took.
 * Money: exact moves the sum of the prices; at shutdown the channel is claimed and swept, payee's delta = swept = the
 * sum of the charges = /stats's channel figures, and /stats revenue = the ledger = the exact sum.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch'
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
import { channelPayer, clientFor } from '../support/channels'
import { startServerOnChain, stopAndTally } from '../support/on-chain'
import { decodeB64Json, post, type TestServer } from '../support/server'

const calls = catalogCalls()
const total = sum(calls.map((c) => c.price))

let chain: DevChain
let world: ReturnType<typeof catalogWorld>
let s: TestServer
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
})
afterAll(async () => {
  if (!stopped) await s?.stop()
  world?.close()
  await chain?.stop()
})

type Pay = (input: string, init?: RequestInit) => Promise<Response>

/** One paid call of `call` through `pay`: the 402 offers both schemes at the price, then the paid answer. */
async function paidCall(pay: Pay, call: CatalogCall, problems: string[]) {
  const input = world.stage(call)
  const url = `${s.url}/api/v1/${call.slug}${call.tiered ? `?tier=${call.tier}` : ''}`
  const offered = decodeB64Json((await post(url, input)).headers.get('payment-required'))?.accepts ?? []
  const terms = offered.map((a: { scheme: string; amount: string }) => `${a.scheme} ${a.amount}`)
  if (terms.join() !== `exact ${call.price},batch-settlement ${call.price}`)
    problems.push(`${call.label}: the 402 offers ${terms.join(', ')}`)
  const res = await pay(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  const bad = [...answerProblems(call, res.status, body), ...world.problems(call)]
  problems.push(...bad)
  const header = res.headers.get('payment-response')
  const response = header ? decodePaymentResponseHeader(header) : undefined
  if (!response?.success) problems.push(`${call.label}: no successful PAYMENT-RESPONSE`)
  return { ok: !bad.length && Boolean(response?.success), body, response }
}

test(`the official exact client pays all ${calls.length} calls of the catalog over HTTP`, async () => {
  // every service of the catalog, each tier of the tiered ones (analysis and model services: quick, standard, pro)
  expect(new Set(calls.map((c) => c.slug))).toEqual(new Set(entries.map((e) => e.manifest.slug)))
  expect(calls.filter((c) => c.tiered).length).toBe(3 * entries.filter((e) => e.manifest.kind === 'tiered').length)
  expect(calls.length).toBeGreaterThan(130)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const pay = wrapFetchWithPayment(
    fetch,
    officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls),
  )
  const problems: string[] = []
  let paid = 0
  for (const call of calls) {
    const { ok, body, response } = await paidCall(pay, call, problems)
    const bad = response?.success ? exactProblems(call, body, response) : []
    problems.push(...bad)
    if (ok && !bad.length) paid++
  }
  expect(problems).toEqual([])
  expect(paid).toBe(calls.length)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(total)
}, 300_000)

test(`the official channel client pays all ${calls.length} calls of the catalog over HTTP: one deposit, then vouchers; claimed and swept at shutdown`, async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const payer = await channelPayer(chain, 4n * total)
  const pay = wrapFetchWithPayment(fetch, officialClient(clientFor(chain.rpcUrl, payer.key), calls))
  const problems: string[] = []
  const tally = channelTally()
  let paid = 0
  for (const call of calls) {
    const { ok, body, response } = await paidCall(pay, call, problems)
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
