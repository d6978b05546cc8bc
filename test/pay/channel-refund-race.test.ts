/**
 * A cooperative refund racing calls in flight on the same channel (issue #32 item 9), over HTTP on the dev chain with
 * the official client: while a paid call runs, the refund is the spec's busy 402 (nothing refunded, nothing moved);
 * once it answered, the refund returns exactly the balance minus every charge, the in-flight call's included. Then a
 * refund sent together with several calls: whichever takes the channel first, each call is served and charged or
 * refused and not charged, and the refund returns exactly what was not charged when it ran. Books after each:
 * /stats (every scheme) = ledger + charges; payee's on-chain USDC = /stats after the claims and sweep; payer's USDC =
 * funded − charged.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { channelPayer, NETWORK } from '../support/channels'
import { countingServices } from '../support/counting-service'
import { withEcho } from '../support/extra-service'
import { startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import type { TestServer } from '../support/server'

const MIN_DEPOSIT = 100_000n // CHANNEL_MIN_DEPOSIT_USD 0.1
const PRICES = { 'test-count': 3100n, 'test-slow': 2700n } as const
const FUNDED = 1_000_000n

let chain: DevChain
let s: TestServer
let payeeBefore: bigint
const svc = countingServices()

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, {
    entries: [...withEcho(), ...svc.entries],
    env: { CHANNEL_MIN_DEPOSIT_USD: '0.1' },
  })
})
afterAll(async () => {
  await chain?.stop()
})

type Payer = Awaited<ReturnType<typeof channelPayer>>
const call = (client: Payer['client'], slug: string, code: string) =>
  wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, client))(`${s.url}/api/v1/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })
/** What a call was charged (its PAYMENT-RESPONSE), 0 when it was not served. */
const chargedBy = async (res: Response) => {
  await res.arrayBuffer()
  if (res.status !== 200) return 0n
  return BigInt(
    (decodePaymentResponseHeader(res.headers.get('payment-response')!).extra as { chargedAmount: string })
      .chargedAmount,
  )
}
const route = () => `${s.url}/api/v1/test-count`

test('a refund while a call is in flight is busy; after it, it returns the balance minus every charge', async () => {
  const p = await channelPayer(chain, FUNDED)
  expect(await chargedBy(await call(p.client, 'test-count', 'deposit'))).toBe(PRICES['test-count'])
  // a slow call holds the channel
  svc.state.arm()
  const slow = call(p.client, 'test-slow', 'in flight')
  await svc.state.started
  const before = await usdcBalance(chain.rpcUrl, p.account.address)
  await expect(p.newClient().refund(route())).rejects.toThrow(/channel_busy/)
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(before) // nothing moved
  svc.state.open()
  expect(await chargedBy(await slow)).toBe(PRICES['test-slow'])
  const charged = PRICES['test-count'] + PRICES['test-slow']
  // now the refund: everything but the two charges, the in-flight one included
  const refunded = await p.newClient().refund(route())
  expect(refunded).toMatchObject({ success: true, amount: String(MIN_DEPOSIT - charged) })
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(FUNDED - charged)
  const kept = (await s.booted.storage.channels.list(100)).find((c) => c.payer === p.account.address.toLowerCase())!
  expect(kept).toMatchObject({ charged, claimed: charged, balance: charged })
})

test('a refund sent together with calls: each call charged or not served, the refund returns exactly the rest', async () => {
  const p = await channelPayer(chain, FUNDED)
  const mine = async () =>
    (await s.booted.storage.channels.list(100)).find((c) => c.payer === p.account.address.toLowerCase())!
  let client = p.client
  expect(await chargedBy(await call(client, 'test-count', 'deposit'))).toBe(PRICES['test-count'])
  let served = PRICES['test-count']
  const outcomes: string[] = []
  for (let round = 0; round < 3; round++) {
    const start = await mine()
    // three calls from the client that knows the channel (one cumulative voucher: at most one wins) and a refund
    const [refund, ...calls] = await Promise.all([
      p
        .newClient()
        .refund(route())
        .then(
          (r) => ({ ok: true as const, amount: BigInt(r.amount ?? '') }),
          (e: Error) => ({ ok: false as const, why: e.message }),
        ),
      ...['a', 'b', 'c'].map((c) => call(client, 'test-count', `${round}${c}`).then(chargedBy)),
    ])
    const now = calls.reduce((a, b) => a + b, 0n)
    served += now
    const kept = await mine()
    expect(kept.charged).toBe(served) // every 200 charged once, nothing else
    outcomes.push(`${refund.ok ? 'refunded' : 'refund refused'}, ${calls.filter((c) => c > 0n).length} served`)
    if (refund.ok) {
      // the calls served this round ran before the refund (after it the channel pays for nothing more): it
      // returned the balance minus every charge, and the channel keeps exactly what was charged
      expect(refund.amount).toBe(start.balance - served)
      expect(kept.balance).toBe(served)
      expect(kept.claimed).toBe(served)
      expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(FUNDED - served)
      // the next round starts with a new deposit (a client that reads the channel from the chain)
      client = p.newClient()
      served += await chargedBy(await call(client, 'test-count', `deposit${round}`))
    } else {
      // refused: busy, or the calls moved the channel between the client's resynchronization and its retry (the
      // corrective 402 twice); either way nothing was refunded
      expect(refund.why).toMatch(/channel_busy|server returned 402 after 2 attempt/)
      expect(kept.balance).toBe(start.balance)
    }
  }
  const kept = await mine()
  if (kept.balance > kept.charged) await p.newClient().refund(route())
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(FUNDED - served)
  expect(outcomes.length).toBe(3)
})

test('books: /stats = ledger + charges; after the claims and sweep, the payee’s USDC = /stats', async () => {
  const totals = await s.booted.storage.channels.totals()
  await s.booted.channels!.stop()
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally.exact).toBe(0n)
  expect(tally.channels).toBe(totals.earned)
  expect(tally.ledger).toBe(tally.stats)
  expect(tally.delta + tally.unswept + tally.unclaimed).toBe(tally.stats)
  expect(tally.delta).toBe(tally.stats)
})
