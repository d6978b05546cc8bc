/**
 * The official Solana client (`ExactSvmScheme` on `x402Client` + `@x402/fetch`, RPC at the embedded Solana dev chain)
 * pays every service of the catalog once over HTTP and once over MCP (each service its own tool, `?tools=all`, the
 * payload made by `createPaymentPayload` from the unpaid call's PaymentRequired, in `_meta["x402/payment"]`): each
 * service, each tier of a tiered one; the model-backed ones again as streams (Server-Sent Events). Models, web pages and
 * live-data upstreams are loopback fakes scripted from each service's fixtures (test/support/catalog-calls.ts). Each
 * call: the 402 offers the Solana entry at the price, then 200 with the declared output and a successful
 * PAYMENT-RESPONSE on Solana. Books: payee USDC delta = the sum of the prices = /stats revenue for the network = the
 * ledger.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { KeyPairSigner } from '@solana/kit'
import { x402Client } from '@x402/core/client'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { PaymentRequired, SettleResponse } from '@x402/core/types'
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { atomicToUsd } from '../../runtime/catalog/amount'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { sqliteOf } from '../../runtime/db/open'
import { answerProblems, type CatalogCall, catalogCalls, catalogWorld, payEach, sum } from '../support/catalog-calls'
import { entries } from '../support/entries'
import { decodeB64Json, post, startServer, type TestServer } from '../support/server'
import { solanaEnv, solanaPayer, usdcOf } from '../support/solana'
import { mcpClient, textJson } from '../mcp/client'
import { sseReader } from '../support/sse'

const calls = catalogCalls()
const total = sum(calls.map((c) => c.price))
/** The calls that can be answered as a stream (Server-Sent Events): the model-backed services. */
const streamable = calls.filter((c) => c.entry.manifest.needs?.includes('model'))

let chain: SolanaDevChain
let payer: KeyPairSigner
let world: ReturnType<typeof catalogWorld>
let s: TestServer
let payeeBefore = 0n
let c: Client
let client: x402Client
beforeAll(async () => {
  chain = await startSolanaDevChain({ payerUsdc: 3n * total })
  payer = await solanaPayer(chain)
  world = catalogWorld()
  s = await startServer({ env: { ...world.env, ...solanaEnv(chain) } })
  // its per-payment cap ($1 by default) raised to the highest price of the catalog
  client = new x402Client().register('solana:*', new ExactSvmScheme(payer, { rpcUrl: chain.url })).setSpendControls({
    maxAmountPerPayment: `$${atomicToUsd(calls.reduce((a, c) => (c.price > a ? c.price : a), 0n))}`,
  })
  c = await mcpClient(s.url, '?tools=all')
  await c.listTools() // caches every outputSchema: the client then validates each structuredContent against it
})

/** A Solana settle response: on the network, with a transaction signature. */
const onSolana = (call: CatalogCall, _body: unknown, response: SettleResponse) =>
  response.network === SOLANA_MAINNET_CAIP2 && /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(response.transaction)
    ? []
    : [`${call.label}: settled as ${response.network} ${response.transaction}`]

/** Payee delta = `expected` = /stats revenue for the network = the ledger, with `paidCalls` paid calls. */
async function books(expected: bigint, paidCalls: number) {
  expect((await usdcOf(chain, chain.payee.usdcAccount)) - payeeBefore).toBe(expected)
  const stats = (await (await s.fetch('/stats')).json()) as {
    networks: Array<{ network: string; revenue_atomic: string; paid_calls: number }>
  }
  const solana = stats.networks.find((n) => n.network === SOLANA_MAINNET_CAIP2)!
  expect(BigInt(solana.revenue_atomic)).toBe(expected)
  expect(solana.paid_calls).toBe(paidCalls)
  expect(sqliteOf(s.booted).ledger.settledTotal(SOLANA_MAINNET_CAIP2)).toBe(expected)
}
afterAll(async () => {
  await c?.close()
  await s?.stop()
  world?.close()
  await chain?.stop()
})

/** One paid call over HTTP with the official client (as a stream when `stream`): the 402 offers Solana at the price. */
async function paidOverHttp(call: CatalogCall, problems: string[], stream: boolean) {
  const input = world.stage(call)
  const url = `${s.url}/api/v1/${call.slug}${call.tiered ? `?tier=${call.tier}` : ''}`
  const offered = decodeB64Json((await post(url, input)).headers.get('payment-required'))?.accepts ?? []
  const solana = offered.filter((a: { network: string }) => a.network === SOLANA_MAINNET_CAIP2)
  if (solana.length !== 1 || solana[0].amount !== String(call.price) || offered[0].network !== 'eip155:8453')
    problems.push(`${call.label}: the 402 offers ${JSON.stringify(offered.map((a: { network: string }) => a.network))}`)
  const res = await wrapFetchWithPayment(fetch, client)(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) },
    body: JSON.stringify(input),
  })
  let status: number | string = res.status
  let body: unknown
  let response: SettleResponse | undefined
  if (stream && res.status === 200) {
    // the settle response is the result event's `payment` (settled after the complete result)
    const last = (await sseReader(res).rest()).at(-1)
    if (last?.event !== 'result') status = `event ${last?.event}`
    const { payment, ...rest } = (last?.data ?? {}) as { payment?: SettleResponse }
    body = rest
    response = payment
  } else {
    const text = await res.text()
    body = text
    try {
      body = JSON.parse(text)
    } catch {}
    const header = res.headers.get('payment-response')
    response = header ? decodePaymentResponseHeader(header) : undefined
  }
  const bad = [...answerProblems(call, status, body), ...world.problems(call)]
  problems.push(...bad)
  if (!response?.success) problems.push(`${call.label}: no successful settle response`)
  return { ok: !bad.length && Boolean(response?.success), body, response }
}

test(`the official Solana client pays all ${calls.length} calls of the catalog over HTTP; books = chain`, async () => {
  expect(new Set(calls.map((c) => c.slug))).toEqual(new Set(entries.map((e) => e.manifest.slug)))
  payeeBefore = await usdcOf(chain, chain.payee.usdcAccount)
  await payEach(calls, (call, problems) => paidOverHttp(call, problems, false), onSolana)
  await books(total, calls.length)
}, 300_000)

test(`the official Solana client pays all ${calls.length} calls of the catalog over MCP; books = chain`, async () => {
  const one = async (call: CatalogCall, problems: string[]) => {
    const input = world.stage(call)
    const args = call.tiered ? { ...input, tier: call.tier } : input
    const unpaid = await c.callTool({ name: call.slug, arguments: args })
    const required = unpaid.structuredContent as PaymentRequired | undefined
    const solana = (required?.accepts ?? []).filter((a) => a.network === SOLANA_MAINNET_CAIP2)
    if (!unpaid.isError || solana.length !== 1 || solana[0]!.amount !== String(call.price)) {
      problems.push(`${call.label}: the unpaid call answered ${JSON.stringify(unpaid).slice(0, 200)}`)
      return { ok: false }
    }
    const payment = await client.createPaymentPayload(required!)
    const r = await c.callTool({ name: call.slug, arguments: args, _meta: { 'x402/payment': payment } })
    const body = r.structuredContent ?? textJson(r)
    const bad = [...answerProblems(call, r.isError ? 'isError' : 200, body), ...world.problems(call)]
    problems.push(...bad)
    const response = r._meta?.['x402/payment-response'] as SettleResponse | undefined
    if (!response?.success) problems.push(`${call.label}: no successful x402/payment-response`)
    return { ok: !bad.length && Boolean(response?.success), body, response }
  }
  await payEach(calls, one, onSolana)
  await books(2n * total, 2 * calls.length)
}, 300_000)

test(`the official Solana client pays the ${streamable.length} model calls answered as streams; books = chain`, async () => {
  expect(streamable.length).toBeGreaterThan(30)
  await payEach(streamable, (call, problems) => paidOverHttp(call, problems, true), onSolana)
  await books(2n * total + sum(streamable.map((c) => c.price)), 2 * calls.length + streamable.length)
}, 300_000)
