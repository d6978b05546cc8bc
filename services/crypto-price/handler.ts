import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { malformed, num } from '../_lib/live-data'
import manifest from './manifest'

const MINUTE = 60 * 1000

function splitList(
  field: string,
  raw: string | undefined,
  fallback: string,
  max: number,
  pattern: RegExp,
  what: string,
): string[] {
  const items = [
    ...new Set(
      String(raw ?? fallback)
        .toLowerCase()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ]
  if (!items.length) throw invalid(field, `is required: ${what}`)
  if (items.length > max) throw invalid(field, `at most ${max} values`)
  const bad = items.find((s) => !pattern.test(s))
  if (bad) throw invalid(field, `'${bad}' is not ${what}`)
  return items
}

export default handlerFor(manifest, async ({ ids, vs }, ctx) => {
  const coins = splitList(
    'ids',
    ids,
    '',
    25,
    /^[a-z0-9][a-z0-9._-]{0,99}$/,
    'a CoinGecko coin id (lower-case letters, digits, hyphens, e.g. bitcoin)',
  )
  const quotes = splitList('vs', vs, 'usd', 10, /^[a-z0-9]{2,10}$/, 'a quote currency code (e.g. usd, eur, btc)')
  const { data } = await ctx.upstream('coingecko').getJson<Record<string, Record<string, number | null>>>(
    '/simple/price',
    {
      ids: [...coins].sort().join(','),
      vs_currencies: [...quotes].sort().join(','),
      include_market_cap: true,
      include_24hr_vol: true,
      include_24hr_change: true,
      include_last_updated_at: true,
      precision: 'full',
    },
    { ttlMs: MINUTE },
  )
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw malformed('coingecko', 'a price object')
  const prices: Array<{
    id: string
    vs: string
    price: number
    market_cap: number | null
    volume_24h: number | null
    change_24h_percent: number | null
    last_updated: string | null
  }> = []
  const missing: string[] = []
  for (const id of coins) {
    const row = data[id]
    if (!row || typeof row !== 'object') {
      missing.push(id)
      continue
    }
    const updated = num(row.last_updated_at)
    for (const q of quotes) {
      const price = num(row[q])
      if (price === null) {
        missing.push(`${id}/${q}`)
        continue
      }
      prices.push({
        id,
        vs: q,
        price,
        market_cap: num(row[`${q}_market_cap`]),
        volume_24h: num(row[`${q}_24h_vol`]),
        change_24h_percent: num(row[`${q}_24h_change`]),
        last_updated: updated === null ? null : new Date(updated * 1000).toISOString(),
      })
    }
  }
  if (!prices.length)
    throw new ServiceError(
      404,
      'NOT_FOUND',
      `CoinGecko has no price for ${coins.join(', ')} in ${quotes.join(', ')} (ids are CoinGecko ids such as bitcoin, not tickers such as BTC)`,
      { details: { missing } },
    )
  return { vs: quotes, count: prices.length, prices, missing, attribution: ctx.upstream('coingecko').attribution }
})
