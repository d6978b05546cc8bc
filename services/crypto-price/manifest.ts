import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema } from '../_lib/live-data'

const n = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'crypto-price',
  name: 'Crypto price',
  description:
    'Spot price, 24-hour change, 24-hour volume and market cap of up to 25 coins by CoinGecko id (e.g. bitcoin, ethereum, usd-coin) in up to 10 quote currencies (e.g. usd, eur, btc), from the CoinGecko simple/price API at full precision. Cached 60 s. Ids or currencies CoinGecko does not know are listed in `missing`; when none is known the answer is a 404 NOT_FOUND. Data provided by CoinGecko (see attribution).',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['coingecko'],
  input: t.Object(
    {
      ids: t.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'Comma-separated CoinGecko coin ids (at most 25), e.g. "bitcoin,ethereum". Ids, not ticker symbols.',
      }),
      vs: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 200,
          default: 'usd',
          description: 'Comma-separated quote currencies (at most 10), e.g. "usd,eur". Default usd.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { coin: 'ids', coins: 'ids', id: 'ids', currency: 'vs', vs_currency: 'vs', vs_currencies: 'vs' } },
  output: t.Object({
    vs: t.Array(t.String()),
    count: t.Integer({ description: 'Prices returned.' }),
    prices: t.Array(
      t.Object({
        id: t.String({ description: 'CoinGecko id.' }),
        vs: t.String({ description: 'Quote currency.' }),
        price: t.Number(),
        market_cap: n('Market capitalisation in the quote currency.'),
        volume_24h: n('24-hour trading volume in the quote currency.'),
        change_24h_percent: n('Price change over 24 hours, percent.'),
        last_updated: t.Union([t.String(), t.Null()], {
          description: 'When CoinGecko last updated the price, ISO 8601 UTC.',
        }),
      }),
    ),
    missing: t.Array(t.String(), {
      description: 'Requested "id" or "id/vs" pairs with no price (unknown id or currency).',
    }),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Bitcoin in USD',
      input: { ids: 'bitcoin', vs: 'usd' },
      output: {
        vs: ['usd'],
        count: 1,
        prices: [
          {
            id: 'bitcoin',
            vs: 'usd',
            price: 67187.3358,
            market_cap: 1317802988326.25,
            volume_24h: 31260929299.52,
            change_24h_percent: 3.6378,
            last_updated: '2024-05-02T14:00:00.000Z',
          },
        ],
        missing: [],
        attribution: {
          source: 'CoinGecko',
          url: 'https://www.coingecko.com/en/api_terms',
          license: 'CoinGecko API terms',
          terms: 'attribution "Data provided by CoinGecko" required; free tier rate-limited',
        },
      },
    },
  ],
})
