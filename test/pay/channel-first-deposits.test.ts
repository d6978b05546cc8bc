/**
 * Every first deposit lands (issue #26): a dev chain mining every 0.2 s behind an RPC proxy adding 25 ms each way,
 * the real server settling through that proxy, and N official clients (`@x402/fetch` with
 * `@x402/evm/batch-settlement/client`, reading the chain directly like the bench's callers), each its own payer, all
 * making their first call at once. Each first call answers 200 with its deposit's transaction; after shutdown
 * (claims and sweep) payee's delta = swept = charged.
 * Then a node answering "block out of range" to the reads of a deposit (anvil keeping no past state does so to a
 * `latest` read racing a new block; load-balanced providers answer "header not found" from a node one block behind)
 * does not refuse it: the server's reads are retried (settler-signer.ts).
 * N is 32, not the bench's 128: here callers, server and proxy share one process, whose fetch pool `bun test` caps at
 * 256 connections; 128 callers waiting on the server, the server's reads waiting on the proxy and the proxy's
 * forwards would fill it, and the forwards would wait for the reads' 10 s timeout (the bench runs the server apart).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { getAbiItem, toFunctionSelector, type Abi, type AbiFunction, type Hex } from 'viem'
import { abiOf } from '../../runtime/chain/contracts'
import { generatePrivateKey } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { clientFor, fundPayers, NETWORK } from '../support/channels'
import { chainFacilitator, startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import { startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import type { TestServer } from '../support/server'

const CALLERS = 32
const MIN_DEPOSIT = 100_000n // CHANNEL_MIN_DEPOSIT_USD 0.1
const BODY = JSON.stringify({ text: 'first deposit', algo: 'sha256' })
/** The 4-byte selector of a function of one of our contracts (what an eth_call's data starts with). */
const selector = (contract: Parameters<typeof abiOf>[0], name: string) =>
  toFunctionSelector(getAbiItem({ abi: abiOf(contract) as Abi, name }) as AbiFunction)
/** anvil's answer to a `latest` read whose block was replaced while it ran (code -32602, invalid params). */
const OUT_OF_RANGE = { code: -32602, message: 'BlockOutOfRangeError: block height is 23 but requested was 22' }

let chain: DevChain
let proxy: FaultProxy
let s: TestServer
let payeeBefore: bigint
let stopped = false

beforeAll(async () => {
  chain = await startDevChain({ blockTime: 0.2 })
  proxy = startFaultProxy(chain.rpcUrl)
  proxy.latency = { in: 25, out: 25 }
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, {
    facilitator: chainFacilitator(chain, { rpcUrl: proxy.url, blockTimeMs: 200 }),
    env: { CHANNEL_MIN_DEPOSIT_USD: '0.1' },
  })
})
afterAll(async () => {
  if (!stopped) await s?.stop()
  proxy?.stop()
  await chain?.stop()
})

/** A paying fetch of the official channel client for `key` (reading the chain directly, like the bench's callers). */
const channelFetch = (key: Hex) =>
  wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, key)))

/** One call of `hash-digest` ($0.001): status, the PAYMENT-RESPONSE (or the 402's reason) and the charge told. */
async function call(pay: ReturnType<typeof channelFetch>) {
  let res: Response
  try {
    res = await pay(`${s.url}/api/v1/hash-digest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    })
  } catch (e) {
    // the client failed before it had an answer (its own chain read)
    return { status: 0, transaction: '', why: String((e as Error).message).split('\n')[0], charged: 0n }
  }
  const text = await res.text()
  const header = res.headers.get('payment-response')
  const settled = header ? decodePaymentResponseHeader(header) : null
  const required = res.headers.get('payment-required')
  const why =
    res.status === 200
      ? ''
      : required
        ? JSON.parse(Buffer.from(required, 'base64').toString()).error
        : text.slice(0, 200)
  const charged = BigInt((settled?.extra as { chargedAmount?: string } | undefined)?.chargedAmount ?? '0')
  return { status: res.status, transaction: settled?.transaction ?? '', why, charged }
}

let charged = 0n
let channels = 0

test(`${CALLERS} official clients, each its own payer, first call at once at 0.2 s blocks: every deposit lands`, async () => {
  const keys = Array.from({ length: CALLERS }, () => generatePrivateKey())
  await fundPayers(chain, keys, 1_000_000n)
  const pays = keys.map(channelFetch)
  const first = await Promise.all(pays.map(call))
  const refused = first.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.why}`)
  expect(refused).toEqual([])
  for (const r of first) expect(r.transaction).toMatch(/^0x[0-9a-f]{64}$/)
  expect(new Set(first.map((r) => r.transaction)).size).toBe(CALLERS)
  // the channels are open: the next call of each is a voucher (no transaction)
  const second = await Promise.all(pays.map(call))
  expect(second.map((r) => [r.status, r.transaction])).toEqual(second.map(() => [200, '']))
  charged += [...first, ...second].reduce((a, r) => a + r.charged, 0n)
  channels += CALLERS
}, 240_000)

/**
 * The reads of a first deposit that met a node's transient answer before the fix, and what each became: the
 * facilitator's simulation of `deposit` (402 deposit_simulation_failed), its Multicall3 read of the channel and the
 * payer's balance (thrown: 503 PAYMENT_UNAVAILABLE), the payer's code (taken as a bad signature: 402
 * receive_authorization_signature).
 */
const READS: Array<[string, string, string | undefined]> = [
  ['the simulation of deposit', 'eth_call', selector('X402BatchSettlement', 'deposit')],
  ['the Multicall3 read of channel and balance', 'eth_call', selector('Multicall3', 'tryAggregate')],
  ["the payer's code", 'eth_getCode', undefined],
]
for (const [what, method, match] of READS)
  test(`a node answering "block out of range" to ${what} does not refuse a first deposit: the read is retried`, async () => {
    const key = generatePrivateKey()
    await fundPayers(chain, [key], 1_000_000n)
    const before = proxy.calls.get(method) ?? 0
    proxy.faults.set(method, { ...OUT_OF_RANGE, times: 2, ...(match ? { match } : {}) })
    const r = await call(channelFetch(key))
    expect(`${r.status} ${r.why}`).toBe('200 ')
    expect(proxy.faults.has(method)).toBe(false) // both injected answers were met
    expect(r.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect((proxy.calls.get(method) ?? 0) - before).toBeGreaterThan(2)
    charged += r.charged
    channels += 1
  }, 120_000)

test('after shutdown (claims and sweep): payee delta = swept = charged', async () => {
  await s.booted.channels!.stop()
  const totals = await s.booted.storage.channels.totals()
  expect(totals.channels).toBe(channels)
  expect(totals.deposited).toBe(BigInt(channels) * MIN_DEPOSIT)
  expect(totals).toMatchObject({ earned: charged, claimed: charged, swept: charged })
  stopped = true
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally.exact).toBe(0n) // no exact call
  expect(tally.stats).toBe(charged)
  expect(tally.ledger).toBe(charged)
  expect(tally.delta).toBe(charged)
}, 120_000)
