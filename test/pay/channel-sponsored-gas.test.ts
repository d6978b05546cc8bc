/**
 * Sponsored gas (issue #32 item 1, docs/channels.md "Sponsored gas"), over HTTP on the dev chain with the official
 * client: a payer deposits through a call whose handler fails (nothing charged), takes everything back with a
 * cooperative refund, and repeats. The first cycle is sponsored (one deposit, one refund at the server's gas); every
 * later one is refused before any transaction (`channel_not_sponsored`), so doubling the cycles does not double the
 * operator's unpaid gas. A payer who buys keeps its sponsored deposits and refunds; a drained payer's second empty
 * channel is not refunded at the server's gas, and its timed withdrawal (its own gas) returns everything.
 * Books: /stats (every scheme) = the ledger = the chain; payer USDC unchanged by the drain.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { keccak256, toHex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { channelPayer, NETWORK, payerWallet } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import { decodeB64Json, type TestServer } from '../support/server'

const PRICE = 4200n // test-echo: $0.0042
const MIN_DEPOSIT = 100_000n // CHANNEL_MIN_DEPOSIT_USD 0.1
const ADMIN_TOKEN = 'channel-sponsored-gas-test-admin-token-01'

let chain: DevChain
let s: TestServer
let payeeBefore: bigint

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, { entries: withEcho(), env: { CHANNEL_MIN_DEPOSIT_USD: '0.1', ADMIN_TOKEN } })
})
afterAll(async () => {
  await chain?.stop()
})

type Payer = Awaited<ReturnType<typeof channelPayer>>
const echo = (client: Payer['client'], code: string) =>
  wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, client))(`${s.url}/api/v1/test-echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })
const reason = (res: Response) => decodeB64Json(res.headers.get('payment-required')).error
const route = () => `${s.url}/api/v1/test-echo`
const sponsoredOf = async (payer: Payer) =>
  (await s.booted.storage.channels.sponsored(NETWORK, 0, 100)).find(
    (p) => p.payer === payer.account.address.toLowerCase(),
  )

/** One drain cycle: a deposit through a failing call, then a refund of everything. */
async function drainCycle(payer: Payer): Promise<'sponsored' | 'refused'> {
  const failed = await echo(payer.client, 'fail')
  if (failed.status === 402) {
    expect(reason(failed)).toBe('channel_not_sponsored')
    return 'refused'
  }
  expect(failed.status).toBe(422)
  // the client heard no PAYMENT-RESPONSE for its deposit: a fresh client reads the channel from the chain
  const refunded = await payer.newClient().refund(route())
  expect(refunded).toMatchObject({ success: true, amount: String(MIN_DEPOSIT) })
  return 'sponsored'
}

test('drain: doubling the cycles does not double the sponsored gas; the payer loses nothing', async () => {
  const a = await channelPayer(chain, 1_000_000n)
  const b = await channelPayer(chain, 1_000_000n)
  const outcomes = { a: [] as string[], b: [] as string[] }
  for (let i = 0; i < 3; i++) outcomes.a.push(await drainCycle(a))
  for (let i = 0; i < 6; i++) outcomes.b.push(await drainCycle(b))
  expect(outcomes.a).toEqual(['sponsored', 'refused', 'refused'])
  expect(outcomes.b).toEqual(['sponsored', ...Array(5).fill('refused')])
  const [sa, sb] = [await sponsoredOf(a), await sponsoredOf(b)]
  expect(sa).toMatchObject({ deposits: 1, refunds: 1, earned: 0n })
  expect(sb).toMatchObject({ deposits: 1, refunds: 1, earned: 0n })
  // twice the cycles, the same gas (one deposit and one refund each; gas prices on the dev chain barely move)
  expect(sb!.gasWei).toBeGreaterThan(0n)
  expect(sb!.gasWei * 10n).toBeLessThan(sa!.gasWei * 12n)
  for (const p of [a, b]) expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(1_000_000n)

  // /stats shows the sponsored gas, and the payers shortened; the console shows them whole
  const stats = (await (await s.fetch('/stats')).json()) as {
    channels: { sponsored_gas_wei: string; sponsored_payers: Array<{ payer: string; deposits: number }> }
  }
  expect(BigInt(stats.channels.sponsored_gas_wei)).toBe(sa!.gasWei + sb!.gasWei)
  const short = (x: Payer) =>
    `${x.account.address.toLowerCase().slice(0, 6)}…${x.account.address.slice(-4).toLowerCase()}`
  expect(stats.channels.sponsored_payers.map((p) => p.payer).sort()).toEqual([short(a), short(b)].sort())
  const consoleList = await (
    await s.fetch('/admin/api/channels', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).json()
  expect(consoleList.figures.sponsored_payers).toContainEqual(
    expect.objectContaining({ payer: b.account.address.toLowerCase(), deposits: 1, refunds: 1, earned_atomic: '0' }),
  )
})

test('a payer who buys keeps its sponsored deposits and refunds', async () => {
  const c = await channelPayer(chain, 1_000_000n)
  for (let round = 0; round < 2; round++) {
    const res = await echo(c.client, `buy${round}`)
    expect(res.status).toBe(200)
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!).amount).toBe(String(MIN_DEPOSIT))
    expect((await echo(c.client, 'fail')).status).toBe(422) // a failure on a channel that bought is no drain
    expect(await c.client.refund(route())).toMatchObject({ success: true, amount: String(MIN_DEPOSIT - PRICE) })
  }
  expect(await sponsoredOf(c)).toMatchObject({ deposits: 2, refunds: 2, earned: 2n * PRICE })
  expect(await usdcBalance(chain.rpcUrl, c.account.address)).toBe(1_000_000n - 2n * PRICE)
})

test('a drained payer’s second empty channel is not refunded at our gas; its timed withdrawal returns it', async () => {
  const d = await channelPayer(chain, 1_000_000n)
  const [s1, s2] = [keccak256(toHex('salt one')), keccak256(toHex('salt two'))]
  const one = d.newClient(s1)
  const two = d.newClient(s2)
  // two channels opened (both sponsored: no refund yet), both through failing calls
  expect((await echo(one, 'fail')).status).toBe(422)
  expect((await echo(two, 'fail')).status).toBe(422)
  expect(await d.newClient(s1).refund(route())).toMatchObject({ success: true, amount: String(MIN_DEPOSIT) })
  await expect(d.newClient(s2).refund(route())).rejects.toThrow(/channel_not_sponsored/)
  expect(await sponsoredOf(d)).toMatchObject({ deposits: 2, refunds: 1 })

  // the escape hatch, at the payer's gas: initiate, wait the delay, finalize
  const store = s.booted.storage.channels
  const kept = (await store.list(100)).filter((c) => c.payer === d.account.address.toLowerCase())
  const left = kept.find((c) => c.balance > 0n)!
  const wallet = payerWallet(chain, d.key)
  await wallet('initiateWithdraw', [left.config, MIN_DEPOSIT])
  await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'evm_increaseTime',
      params: [left.config.withdrawDelay + 1],
    }),
  })
  await wallet('finalizeWithdraw', [left.config])
  expect(await usdcBalance(chain.rpcUrl, d.account.address)).toBe(1_000_000n)
  expect(await sponsoredOf(d)).toMatchObject({ deposits: 2, refunds: 1 }) // the withdrawal cost us nothing
})

test('books: /stats = the ledger = the chain after the drains, purchases and refunds', async () => {
  await s.booted.channels!.stop()
  const totals = await s.booted.storage.channels.totals()
  expect(totals).toMatchObject({ earned: 2n * PRICE, claimed: 2n * PRICE, swept: 2n * PRICE })
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally).toMatchObject({ exact: 0n, channels: 2n * PRICE, stats: 2n * PRICE, ledger: 2n * PRICE })
  expect(tally.delta).toBe(tally.stats)
})
