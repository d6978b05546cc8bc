import type { CatalogService } from '../../catalog/index'
import type { LedgerStore } from '../../db/store'
import { weiToUsd } from '../../db/report'
import type { Logger } from '../../sdk'

/** How far back the boot looks for the average settlement cost. */
const RECENT_MS = 7 * 86_400_000

/**
 * Warns (once, at boot) about every available service whose cheapest tier is priced below the average gas cost of
 * the recent settlements: each paid call of it loses money. Needs ETH_USD and settlements with known gas.
 * Returns the slugs warned about.
 */
export async function warnUnprofitablePrices(
  services: CatalogService[],
  ledger: LedgerStore,
  ethUsd: number | null,
  log: Logger,
  now = Date.now(),
): Promise<string[]> {
  if (ethUsd === null) return []
  const wei = await ledger.averageSettlementCost(now - RECENT_MS)
  const costUsd = wei === null ? null : weiToUsd(wei, ethUsd)
  if (costUsd === null) return []
  const losing: string[] = []
  for (const s of services) {
    if (!s.available) continue
    const prices = Object.values(s.pricing).map((p) => p!.price_usd)
    const cheapest = Math.min(...prices)
    if (cheapest < costUsd) {
      losing.push(s.slug)
      log.warn('service price is below the average settlement cost', {
        slug: s.slug,
        price_usd: cheapest,
        settlement_cost_usd: costUsd,
        average_gas_wei: wei!.toString(),
      })
    }
  }
  return losing
}
