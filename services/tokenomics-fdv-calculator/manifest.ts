import { defineService, flat, t } from '../../runtime/sdk'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'tokenomics-fdv-calculator',
  name: 'Token market cap and FDV calculator',
  description:
    "Token valuation metrics as CoinMarketCap defines them: market cap = price × circulating supply; fully diluted valuation (FDV) = price × max supply, or × total supply when there is no max supply; circulating ratio = circulating / that supply; FDV/MC; the supply and value not yet circulating, and the supply increase (dilution) if everything unlocks. Amounts are in the price's currency. Ratios are decimals with *_pct twins.",
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      price: t.Number({ minimum: 0, maximum: 1e12, description: 'Price of one token (≥ 0).' }),
      circulating_supply: t.Number({ exclusiveMinimum: 0, maximum: 1e30, description: 'Tokens circulating (> 0).' }),
      max_supply: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e30,
          description: 'Hard cap on supply (≥ circulating). Omit when the token has no cap.',
        }),
      ),
      total_supply: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e30,
          description:
            'Tokens minted so far minus burned (between circulating and max). Used for FDV when max_supply is absent.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      circulating: 'circulating_supply',
      supply: 'circulating_supply',
      max: 'max_supply',
      total: 'total_supply',
    },
  },
  output: t.Object({
    market_cap: num('price × circulating_supply.'),
    fdv: numOrNull('price × max_supply (or total_supply); null when neither is given.'),
    fdv_basis: t.Union([t.Literal('max_supply'), t.Literal('total_supply'), t.Literal('none')], {
      description: 'Supply used for FDV.',
    }),
    circulating_ratio: numOrNull('circulating / FDV supply (decimal).'),
    circulating_pct: numOrNull('circulating_ratio in percent.'),
    fdv_to_market_cap: numOrNull('FDV / market cap (= FDV supply / circulating).'),
    non_circulating_supply: numOrNull('FDV supply − circulating.'),
    non_circulating_value: numOrNull('non_circulating_supply × price.'),
    dilution_if_fully_unlocked_pct: numOrNull(
      'Supply increase if every token circulates: (FDV supply − circulating)/circulating × 100.',
    ),
  }),
  examples: [
    {
      name: 'Half the supply circulating',
      input: { price: 2, circulating_supply: 500_000_000, max_supply: 1_000_000_000 },
      output: {
        market_cap: 1_000_000_000,
        fdv: 2_000_000_000,
        fdv_basis: 'max_supply',
        circulating_ratio: 0.5,
        circulating_pct: 50,
        fdv_to_market_cap: 2,
        non_circulating_supply: 500_000_000,
        non_circulating_value: 1_000_000_000,
        dilution_if_fully_unlocked_pct: 100,
      },
    },
  ],
})
