/**
 * Solana payers cooled down after a settlement that failed once their payment had verified (the payer moved its
 * USDC away while the handler ran: the handler ran for free): refused for 30 s, doubling with each repeat up to
 * 30 min. On Postgres the ledger's shared table (every instance, and every scheme's payers); on SQLite this
 * process's memory, bounded to `maxPayers` (the oldest dropped first). Base58 payers are case-sensitive.
 * @module pay/schemes/svm-exact/cooldowns
 */
import type { CooldownStore, LedgerStore } from '../../../db/store'

const BASE_MS = 30_000
const MAX_MS = 30 * 60_000

/** In this process's memory (one SQLite process). */
export function memoryCooldowns(now = () => Date.now(), maxPayers = 10_000): CooldownStore {
  const held = new Map<string, { until: number; strikes: number }>()
  return {
    coolingFor: (payer) => Math.max(0, (held.get(payer)?.until ?? 0) - now()),
    strike(payer) {
      const t = now()
      const prev = held.get(payer)
      const strikes = prev && t - prev.until < MAX_MS ? prev.strikes + 1 : 1
      const ms = Math.min(MAX_MS, BASE_MS * 2 ** Math.min(strikes - 1, 30))
      held.delete(payer)
      held.set(payer, { until: t + ms, strikes })
      if (held.size > maxPayers) held.delete(held.keys().next().value!)
      return ms
    },
  }
}

/** The ledger's shared cool-downs where it has them (Postgres), else this process's. */
export const cooldownsOf = (ledger: LedgerStore): CooldownStore => ledger.cooldowns ?? memoryCooldowns()
