/** crypto-price against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const cryptoPrice = typed(manifest, handler)
const { up, ctx, failureForms } = recordedUpstreams()

describe('crypto-price', () => {
  test('prices, market cap, volume, change, last update; input order kept', async () => {
    const out = await cryptoPrice({ ids: 'ethereum, bitcoin', vs: 'usd,eur' }, ctx())
    conforms('crypto-price', out)
    expect(out.count).toBe(4)
    expect(out.prices[2]).toEqual({
      id: 'bitcoin',
      vs: 'usd',
      price: 67187.33589365664,
      market_cap: 1317802988326.2493,
      volume_24h: 31260929299.52484,
      change_24h_percent: 3.637278946773539,
      last_updated: '2024-05-02T14:00:00.000Z',
    })
    expect(out.prices.map((p) => `${p.id}/${p.vs}`)).toEqual([
      'ethereum/usd',
      'ethereum/eur',
      'bitcoin/usd',
      'bitcoin/eur',
    ])
    expect(out.attribution.source).toBe('CoinGecko')
  })
  test('unknown ids are listed; only unknown ids (CoinGecko {}): 404', async () => {
    const out = await cryptoPrice({ ids: 'bitcoin,not-a-coin' }, ctx())
    expect(out.missing).toEqual(['not-a-coin'])
    await serviceError(cryptoPrice({ ids: 'not-a-coin' }, ctx()), 404, 'NOT_FOUND')
  })
  test('bad ids: 422', async () => {
    await serviceError(cryptoPrice({ ids: 'BTC; DROP' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('cache: 10 calls → 1 upstream hit', async () => {
    const c = ctx()
    const before = up.hits('/cg/')
    await Promise.all(Array.from({ length: 10 }, () => cryptoPrice({ ids: 'bitcoin,ethereum', vs: 'eur' }, c)))
    await cryptoPrice({ ids: 'ethereum,bitcoin', vs: 'eur' }, c)
    expect(up.hits('/cg/') - before).toBe(1)
  })
  test('upstream failure forms', () =>
    failureForms('cg', 'coingecko', () => cryptoPrice({ ids: 'bitcoin', vs: 'gbp' }, ctx())))
})
