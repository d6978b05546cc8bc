/**
 * PayerFunds's own rules over a real SQLite ledger (the chain's part is in hold-engines.test.ts): when a balance is
 * read, how reads are shared and cached, when a refusal is judged again and when it is sent at once, and that a
 * failure to read fails closed. The balance source is a counter-backed function here: what is tested is the hold's
 * logic against real ledger rows.
 */
import { expect, test } from 'bun:test'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { PaymentRefused } from '../../runtime/pay/wire'
import { PayerFunds } from '../../runtime/pay/schemes/exact/payer-funds'
import { ServiceError } from '../../runtime/sdk'
import type { Facilitator } from '../../runtime/pay/types'
import { reservation } from '../support/reservation'

const PAYER = '0x00000000000000000000000000000000000000AA'
const ASSET = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
let n = 0
const newReservation = (amount = '1000') =>
  reservation(++n, { payer: PAYER, amount, validBefore: Math.floor(Date.now() / 1000) + 60 })

function setup(balance: () => Promise<bigint>, withBalance = true) {
  const ledger = new Ledger(openDatabase(':memory:'))
  const reads = { n: 0 }
  const facilitator = {
    kind: 'local',
    verify: async () => ({ isValid: true }),
    settle: async () => ({ success: true, transaction: '0x', network: 'eip155:8453' }),
    status: async () => ({ state: 'unknown' as const }),
    ...(withBalance ? { balance: () => (reads.n++, balance()) } : {}),
  } as unknown as Facilitator
  const hold = new PayerFunds(ledger, facilitator)
  const reserve = (amount = '1000') => ledger.reserve(newReservation(amount))!
  return { ledger, hold, reads, reserve }
}

test('nothing else in flight: verified without a balance read', async () => {
  const { ledger, hold, reads, reserve } = setup(async () => 0n)
  const id = reserve()
  await hold.hold(id, PAYER, 1000n, ASSET, Date.now())
  expect(ledger.get(id)!.state).toBe('verified')
  expect(reads.n).toBe(0)
})

test('10 concurrent holds of a payer funded for 3 share one balance read: 3 verified, 7 refused at once', async () => {
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  let balance = 3000n
  const { ledger, hold, reads, reserve } = setup(async () => (await gate, balance))
  const first = reserve()
  await hold.hold(first, PAYER, 1000n, ASSET, Date.now()) // in flight (verified: its handler runs)
  const ids = Array.from({ length: 9 }, () => reserve())
  const out = ids.map((id) =>
    hold.hold(id, PAYER, 1000n, ASSET, Date.now()).then(
      () => 'ok',
      (e) => e,
    ),
  )
  release()
  const results = await Promise.all(out)
  expect(results.filter((r) => r === 'ok').length).toBe(2)
  for (const r of results.filter((r) => r !== 'ok')) {
    expect(r).toBeInstanceOf(PaymentRefused)
    expect((r as PaymentRefused).reason).toBe('insufficient_balance')
  }
  expect(reads.n).toBe(1) // nothing sent: no second read for any refusal
  expect(ledger.byState(['verified']).length).toBe(3)
  expect(ledger.byState(['reserved']).length).toBe(7) // the gate releases refused rows
  // within the TTL the cached balance is reused: less what settled since it was read
  await ledger.transition(first, 'settling')
  ledger.settleOnce(first, { tx: '0x1' })
  balance = 2000n
  const more = reserve()
  await expect(hold.hold(more, PAYER, 1000n, ASSET, Date.now())).rejects.toBeInstanceOf(PaymentRefused)
  // the cached judgment (3000 - 1000 settled since - 2000 in flight) was short: a fresh read (2000 - 2000) is exact
  // (one more when the settlement was recorded in that read's own millisecond: counted as after it, then read again)
  expect(reads.n).toBeGreaterThanOrEqual(2)
  expect(reads.n).toBeLessThanOrEqual(3)
  expect(ledger.get(more)!.state).toBe('reserved')
})

test("a refusal while this process settles the payer's payment waits for it, then reads again", async () => {
  let balance = 1000n // the first transfer already shows in the read
  const { ledger, hold, reads, reserve } = setup(async () => balance)
  const first = reserve()
  await hold.hold(first, PAYER, 1000n, ASSET, Date.now())
  await ledger.transition(first, 'settling')
  let done!: () => void
  hold.trackSettlement(PAYER, new Promise<void>((r) => (done = r)))
  const second = reserve()
  const p = hold.hold(second, PAYER, 1000n, ASSET, Date.now())
  // the hold is waiting for the settlement: record it, then let the settlement end
  while (reads.n < 1) await Bun.sleep(1)
  await Bun.sleep(20)
  expect(ledger.get(second)!.state).toBe('reserved')
  ledger.settleOnce(first, { tx: '0x1' })
  done()
  await p
  expect(ledger.get(second)!.state).toBe('verified')
  expect(reads.n).toBeGreaterThanOrEqual(2)
  balance = 0n
})

test('a refusal with a sent payment but none of this process settling it (pending) is sent at once on SQLite', async () => {
  const { ledger, hold, reads, reserve } = setup(async () => 1000n)
  const first = reserve()
  await hold.hold(first, PAYER, 1000n, ASSET, Date.now())
  ledger.transition(first, 'pending') // unknown outcome: may still land until its authorization expires
  const second = reserve()
  await expect(hold.hold(second, PAYER, 1000n, ASSET, Date.now())).rejects.toBeInstanceOf(PaymentRefused)
  expect(reads.n).toBe(1) // no second round: nothing of this process to wait for, nothing settled since the read
})

test('a backend that cannot read balances allows one unsettled paid call per payer (429 BUSY); a failed read fails closed', async () => {
  const a = setup(async () => 0n, false)
  const first = a.reserve()
  await a.hold.hold(first, PAYER, 1000n, ASSET, Date.now())
  expect(a.ledger.get(first)!.state).toBe('verified')
  // another call while the first is unsettled (verified, then pending until its authorization expires): 429
  for (const state of ['verified', 'settling', 'pending'] as const) {
    a.ledger.transition(first, state)
    const id = a.reserve()
    const refused = await a.hold.hold(id, PAYER, 1000n, ASSET, Date.now()).catch((e) => e)
    expect(refused).toBeInstanceOf(ServiceError)
    expect(refused).toMatchObject({ status: 429, code: 'BUSY' })
    expect(Number((refused as ServiceError).headers?.['retry-after'])).toBeGreaterThan(0)
    expect(a.ledger.get(id)!.state).toBe('reserved') // the gate releases it
    a.ledger.transition(id, 'released')
  }
  // once it settled, a payment whose verification began after that goes through; one verified before it is refused
  // (its verification's balance check predates the settlement)
  const before = Date.now() - 1
  a.ledger.settleOnce(first)
  await expect(a.hold.hold(a.reserve(), PAYER, 1000n, ASSET, before)).rejects.toBeInstanceOf(ServiceError)
  const id = a.reserve()
  await a.hold.hold(id, PAYER, 1000n, ASSET, Date.now() + 1)
  expect(a.ledger.get(id)!.state).toBe('verified')
  // ... but a row released meanwhile (e.g. by the reconciler) is not brought back: the call is refused
  a.ledger.settleOnce(id)
  const gone = a.reserve()
  a.ledger.transition(gone, 'released', { reason: 'request ended before settlement (reconciled)' })
  await expect(a.hold.hold(gone, PAYER, 1000n, ASSET, Date.now() + 1)).rejects.toBeInstanceOf(PaymentRefused)
  expect(a.ledger.get(gone)!.state).toBe('released')

  const b = setup(async () => {
    throw new Error('rpc down')
  })
  b.ledger.transition(b.reserve(), 'verified')
  const id2 = b.reserve()
  await expect(b.hold.hold(id2, PAYER, 1000n, ASSET, Date.now())).rejects.toThrow('rpc down')
  expect(b.ledger.get(id2)!.state).toBe('reserved')
})
