import { ledgerKey } from './shared'
import type { CooldownStore } from './store'

/**
 * Payer cool-downs in memory (one process): a payer whose settlement failed after its payment verified (e.g. funds
 * moved away mid-call, a wallet that only validates under simulation) is refused for a while, doubling with each
 * repeat. The store on SQLite; on Postgres the shared table (runtime/db/postgres/cooldowns.ts) is the store and this
 * one the fallback when a strike cannot be written. (The per-payer in-flight limit is the ledger's:
 * runtime/pay/schemes/exact/payer-funds.ts.) Payers of every scheme: 0x addresses lower-cased, base58 (Solana) as they are. Memory is bounded: at most `maxPayers` cool-downs are kept (oldest dropped first).
 */
export class PayerCooldowns implements CooldownStore {
  private cooldowns = new Map<string, { until: number; strikes: number }>()

  constructor(
    private now = () => Date.now(),
    readonly baseCooldownMs = 30_000,
    readonly maxCooldownMs = 30 * 60_000,
    private maxPayers = 10_000,
  ) {}

  /** Milliseconds of cool-down left for `payer` (0 when none). */
  coolingFor(payer: string): number {
    const c = this.cooldowns.get(ledgerKey(payer))
    return c ? Math.max(0, c.until - this.now()) : 0
  }

  /**
   * Starts (or extends) the payer's cool-down after a failed settlement: base, then doubling with each repeat,
   * capped. A payer whose last cool-down ended more than the cap ago starts again from the base. Returns its length (ms).
   */
  strike(payer: string): number {
    const key = ledgerKey(payer)
    const t = this.now()
    const prev = this.cooldowns.get(key)
    const strikes = prev && t - prev.until < this.maxCooldownMs ? prev.strikes + 1 : 1
    const ms = Math.min(this.maxCooldownMs, this.baseCooldownMs * 2 ** Math.min(strikes - 1, 30))
    this.cooldowns.delete(key)
    this.cooldowns.set(key, { until: t + ms, strikes })
    if (this.cooldowns.size > this.maxPayers) this.cooldowns.delete(this.cooldowns.keys().next().value!)
    return ms
  }
}
