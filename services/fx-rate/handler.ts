import { handlerFor, invalid, type ServiceContext } from '../../runtime/sdk'
import { malformed } from '../_lib/live-data'
import { fxTtl, nextPublication } from './lib'
import manifest from './manifest'

const DAY = 24 * 60 * 60 * 1000
const sig = (x: number) => Number(x.toPrecision(15))

async function supported(ctx: ServiceContext): Promise<string[]> {
  const { data } = await ctx.upstream('frankfurter').getJson<Record<string, string>>('/currencies', {}, { ttlMs: DAY })
  if (!data || typeof data !== 'object') throw malformed('frankfurter', 'a currency list')
  return Object.keys(data).sort()
}

export default handlerFor(manifest, async ({ from, to, amount = 1 }, ctx) => {
  const f = String(from ?? '')
    .trim()
    .toUpperCase()
  const tt = String(to ?? '')
    .trim()
    .toUpperCase()
  if (!/^[A-Z]{3}$/.test(f)) throw invalid('from', 'is required: an ISO 4217 currency code such as USD')
  if (!/^[A-Z]{3}$/.test(tt)) throw invalid('to', 'is required: an ISO 4217 currency code such as EUR')
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0 || amount > 1e15)
    throw invalid('amount', 'must be a number above 0 and at most 1e15')
  const now = ctx.now().getTime()
  const up = ctx.upstream('frankfurter')
  const { status, data } = await up.getJson<{
    base?: string
    date?: string
    rates?: Record<string, number>
    message?: string
  }>('/latest', { base: f }, { ttlMs: fxTtl(now), allowStatus: [404, 422] })
  if (status === 404 || status === 422) {
    const list = await supported(ctx)
    if (!list.includes(f)) throw invalid('from', `'${f}' has no ECB reference rate; supported: ${list.join(', ')}`)
    throw malformed('frankfurter', `rates for ${f} (HTTP ${status})`)
  }
  if (!data?.rates || typeof data.rates !== 'object' || typeof data.date !== 'string')
    throw malformed('frankfurter', 'rates')
  let rate: number
  if (tt === f) rate = 1
  else {
    const r = data.rates[tt]
    if (typeof r !== 'number' || !(r > 0))
      throw invalid(
        'to',
        `'${tt}' has no ECB reference rate; supported: ${[...new Set([f, ...Object.keys(data.rates)])].sort().join(', ')}`,
      )
    rate = r
  }
  return {
    from: f,
    to: tt,
    amount,
    rate,
    inverse_rate: sig(1 / rate),
    result: sig(amount * rate),
    date: data.date,
    next_update: new Date(nextPublication(now)).toISOString(),
    attribution: ctx.upstream('frankfurter').attribution,
  }
})
