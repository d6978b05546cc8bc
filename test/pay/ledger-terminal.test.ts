/**
 * `settled` is terminal in the ledger: a late transition cannot reopen it, so a second settleOnce (the request's
 * own, after a reconciliation won the race) never counts the revenue again.
 */
import { expect, test } from 'bun:test'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { reservation } from '../support/reservation'

test('a transition after settled changes nothing, and settleOnce stays once', async () => {
  const ledger = new Ledger(openDatabase(':memory:'))
  const id = ledger.reserve(
    reservation(1, { payer: '0x' + 'a'.repeat(40), nonce: '0x' + '1'.repeat(64), amount: '5' }),
  )!
  ledger.transition(id, 'verified')
  await ledger.transition(id, 'settling')
  expect(ledger.settleOnce(id, { reason: 'confirmed by reconciliation' })).toBe(true)
  // the settlement's own tx-hash callback arrives late
  ledger.transition(id, 'settling', { tx: '0x' + 'b'.repeat(64) })
  expect(ledger.get(id)).toMatchObject({ state: 'settled', tx_hash: null })
  expect(ledger.settleOnce(id, { tx: '0x' + 'b'.repeat(64) })).toBe(false)
  for (const state of ['pending', 'failed', 'released'] as const) ledger.transition(id, state)
  expect(ledger.get(id)?.state).toBe('settled')
  expect(ledger.settledTotal()).toBe(5n)
  expect(ledger.events(id).map((e) => e.state)).toEqual(['reserved', 'verified', 'settling', 'settled'])
})
