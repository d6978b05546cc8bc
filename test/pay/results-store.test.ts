/**
 * The kept-results table on real SQLite: size caps (per body, in total with eviction of the oldest bodies), time
 * bound (validBefore + grace, purged and ignored on read), and rows of failed or released payments never served.
 */
import { beforeEach, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { ResultStore } from '../../runtime/db/sqlite/results'
import { PaidResults } from '../../runtime/pay/schemes/exact/kept-results'
import { b64json } from '../../runtime/pay/wire'
import type { Ticket } from '../../runtime/pay/schemes/exact/gate'
import { reservation } from '../support/reservation'

let db: Database
let ledger: Ledger
let now = 1_000_000
const nowS = () => now

beforeEach(() => {
  db = openDatabase(':memory:')
  ledger = new Ledger(db)
  now = 1_000_000
})

let seq = 0
/** A real ledger row for a fresh authorization, moved to `state`. */
function payment(state: 'verified' | 'settled' | 'pending' | 'failed' | 'released' = 'settled') {
  const nonce = '0x' + (++seq).toString(16).padStart(64, '0')
  const payer = '0x000000000000000000000000000000000000a11c'
  const id = ledger.reserve(reservation(seq, { payer, nonce, amount: '1', validBefore: now + 60 }))!
  if (state === 'settled') ledger.settleOnce(id)
  else ledger.transition(id, state)
  return { paymentId: id, payer, nonce, key: null as string | null, requestHash: 'h' + seq, expiresAt: now + 660 }
}

const store = (maxBodyBytes = 1000, maxTotalBytes = 10_000) =>
  new ResultStore(db, { maxBodyBytes, maxTotalBytes }, nowS)

test('a body over the single cap is not kept; with an identifier the claim stays (never paid twice)', () => {
  const s = store(100)
  const p = payment()
  expect(s.keep(p, 'x'.repeat(101))).toBe(false)
  expect(s.byAuthorization('eip155:8453', p.payer, p.nonce)).toBeNull()
  const q = { ...payment(), key: 'pay_0123456789abcdef' }
  expect(s.keep(q, 'é'.repeat(51))).toBe(false) // 102 bytes in UTF-8
  expect(s.byKey(q.payer, q.key!)).toMatchObject({ payment_id: q.paymentId, body: null, state: 'settled' })
  expect(s.totalBytes).toBe(0)
})

test('past the total cap the oldest bodies are dropped, their rows stay', () => {
  const s = store(1000, 1000)
  const ps = Array.from({ length: 5 }, () => payment())
  for (const p of ps) s.keep(p, 'y'.repeat(300))
  expect(s.totalBytes).toBeLessThanOrEqual(1000)
  const bodies = ps.map((p) => s.byAuthorization('eip155:8453', p.payer, p.nonce)?.body?.length ?? null)
  expect(bodies).toEqual([null, null, 300, 300, 300])
  // the total survives a restart (summed from the table)
  expect(store(1000, 1000).totalBytes).toBe(900)
})

test('rows expire at validBefore + grace: deleted on read, and purged', () => {
  const s = store()
  const p = payment()
  const q = payment()
  s.keep(p, '{"a":1}')
  s.keep(q, '{"b":2}')
  expect(s.byAuthorization('eip155:8453', p.payer, p.nonce)?.body).toBe('{"a":1}')
  now = p.expiresAt + 1
  expect(s.byAuthorization('eip155:8453', p.payer, p.nonce)).toBeNull()
  expect(db.query('SELECT COUNT(*) AS n FROM paid_results').get()).toEqual({ n: 1 })
  expect(s.purge()).toBe(1)
  expect(db.query('SELECT COUNT(*) AS n FROM paid_results').get()).toEqual({ n: 0 })
  expect(s.totalBytes).toBe(0)
})

test('rows of failed or released payments are never returned and are purged', () => {
  const s = store()
  const failed = payment('pending')
  s.keep(failed, '{"f":1}')
  expect(s.byAuthorization('eip155:8453', failed.payer, failed.nonce)?.state).toBe('pending')
  ledger.transition(failed.paymentId, 'failed', { reason: 'reconciled' })
  expect(s.byAuthorization('eip155:8453', failed.payer, failed.nonce)).toBeNull()
  const released = { ...payment('verified'), key: 'pay_released_claim_1' }
  expect(s.claim({ ...released, key: released.key })).toBeNull()
  ledger.transition(released.paymentId, 'released')
  // a dead claim frees its identifier on read
  expect(s.byKey(released.payer, released.key)).toBeNull()
  expect(s.purge()).toBe(1)
  expect(db.query('SELECT COUNT(*) AS n FROM paid_results').get()).toEqual({ n: 0 })
})

test('an identifier is claimed once per payer', () => {
  const s = store()
  const a = { ...payment('verified'), key: 'pay_same_identifier_x' }
  const b = { ...payment('verified'), key: 'pay_same_identifier_x' }
  expect(s.claim(a)).toBeNull()
  expect(s.claim(b)).toMatchObject({
    payment_id: a.paymentId,
    request_hash: a.requestHash,
    body: null,
    state: 'verified',
  })
  // keeping the winner's body fills its claim row
  expect(s.keep(a, '{"ok":true}')).toBe(true)
  expect(s.byKey(a.payer, a.key)).toMatchObject({ payment_id: a.paymentId, body: '{"ok":true}' })
  // another payer may use the same identifier
  const other = { ...b, payer: '0x000000000000000000000000000000000000b0b0' }
  expect(s.claim(other)).toBeNull()
})

test('the receipt is written only when it differs from the one rebuilt from the ledger', () => {
  const s = store()
  const results = new PaidResults(s, nowS)
  const tx = '0x' + 'ab'.repeat(32)
  const from = '0x000000000000000000000000000000000000A11c'
  const ticket = (id: number) =>
    ({
      id,
      payer: from,
      slug: 's',
      requirements: { network: 'eip155:8453' },
      payment: { payload: { authorization: { from } } },
    }) as unknown as Ticket
  const same = payment()
  s.keep(same, '{}')
  results.settled(
    ticket(same.paymentId),
    b64json({ success: true, transaction: tx, network: 'eip155:8453', payer: from }),
    tx,
  )
  expect(s.byAuthorization('eip155:8453', same.payer, same.nonce)?.receipt).toBeNull()
  const differs = payment()
  s.keep(differs, '{}')
  const remote = b64json({
    success: true,
    transaction: tx,
    network: 'eip155:8453',
    payer: from.toLowerCase(),
    extra: 1,
  })
  results.settled(ticket(differs.paymentId), remote, tx)
  expect(s.byAuthorization('eip155:8453', differs.payer, differs.nonce)?.receipt).toBe(remote)
})

test('bodies are written in batches: a lookup or close writes the pending ones first', () => {
  const s = store()
  const count = () => (db.query('SELECT COUNT(*) AS n FROM paid_results').get() as { n: number }).n
  const [a, b] = [payment(), payment()]
  s.keep(a, '{"a":1}')
  s.keep(b, '{"b":1}')
  expect(count()).toBe(0) // still buffered: no disk flush on the paid path
  expect(s.byAuthorization('eip155:8453', b.payer, b.nonce)?.body).toBe('{"b":1}')
  expect(count()).toBe(2)
  const c = payment()
  s.keep(c, '{"c":1}')
  s.discard(c.paymentId) // discarded while buffered: never written
  const d = payment()
  s.keep(d, '{"d":1}')
  s.close()
  expect(count()).toBe(3)
  expect(store().byAuthorization('eip155:8453', d.payer, d.nonce)?.body).toBe('{"d":1}')
})
