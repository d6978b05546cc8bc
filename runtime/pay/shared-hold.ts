import { SKEW_MS, type LedgerStore, type SharedPayerLedger } from '../db/store'
import { PaymentRefused } from './decode'
import { REASON } from './reasons'
import type { Facilitator } from './types'

/**
 * The per-payer in-flight check on a shared ledger (Postgres, N instances). The amounts in flight are the payer's
 * ledger rows (read under its database lock by `verifyWithin`), so the limit holds across instances; nothing is
 * held in memory. The payer's balance is read from the chain only when something else is in flight (or settled
 * since the verification began), and then reused for `ttlMs`: the ledger subtracts what settled since it was read
 * (any instance), so a cached balance never overstates what the payer can still pay.
 * This errs on the safe side: a transfer mined just before a read but recorded just after it is counted twice.
 * So a refusal is checked again with a fresh read, and, while the payer's other payments are moving, once more
 * after they had time to be recorded (SKEW_MS + 200 ms); a payer that really is short is refused then.
 */
export class SharedHold {
  private balances = new Map<string, { value: bigint; readAtMs: number }>()

  constructor(
    private shared: SharedPayerLedger,
    private ledger: LedgerStore,
    private facilitator: Facilitator,
    private ttlMs = 2_000,
    private maxPayers = 10_000,
    private now = () => Date.now(),
  ) {}

  /** Moves reservation `id` to verified, or throws PaymentRefused (insufficient balance). `sinceMs`: when its verification began. */
  async hold(id: number, payer: string, amount: bigint, asset: string, sinceMs: number): Promise<void> {
    const since = sinceMs - SKEW_MS
    let r = await this.shared.verifyWithin(id, payer, amount, null, since)
    if (r.outcome === 'recheck') {
      if (!this.facilitator.balance) {
        // a backend that cannot read balances is not checked (as on SQLite)
        await this.ledger.transition(id, 'verified')
        return
      }
      const key = payer.toLowerCase()
      const cached = this.balances.get(key)
      if (cached && this.now() - cached.readAtMs <= this.ttlMs)
        r = await this.shared.verifyWithin(id, payer, amount, cached, since)
      for (let attempt = 0; (!cached || r.outcome !== 'ok') && attempt < 2; attempt++) {
        if (attempt === 1) {
          if (r.inFlight === 0n && r.spent === 0n) break // nothing moving: the refusal stands
          await Bun.sleep(SKEW_MS + 200)
        }
        const readAtMs = this.now()
        const value = await this.facilitator.balance(payer as `0x${string}`, asset)
        this.remember(key, { value, readAtMs })
        r = await this.shared.verifyWithin(id, payer, amount, { value, readAtMs }, since)
        if (r.outcome === 'ok') break
      }
    }
    if (r.outcome !== 'ok')
      throw new PaymentRefused(
        REASON.insufficientBalance,
        `the payer's balance minus its payments in flight (${r.inFlight}) does not cover ${amount}`,
      )
  }

  /** The outcome of a transfer is unknown or failed: read the balance again next time. */
  forget(payer: string): void {
    this.balances.delete(payer.toLowerCase())
  }

  private remember(key: string, b: { value: bigint; readAtMs: number }): void {
    this.balances.delete(key)
    this.balances.set(key, b)
    if (this.balances.size > this.maxPayers) this.balances.delete(this.balances.keys().next().value!)
  }
}
