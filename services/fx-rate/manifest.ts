import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema } from '../_lib/live-data'

const code = (description: string) => t.String({ pattern: '^[A-Za-z]{3}$', minLength: 3, maxLength: 3, description })

export default defineService({
  slug: 'fx-rate',
  name: 'FX rate (ECB)',
  description:
    'Converts an amount between two currencies at the latest European Central Bank euro foreign-exchange reference rates (about 30 currencies, published about 16:00 CET on TARGET working days; cross rates through the euro), served by Frankfurter. Returns the rate, its inverse, the converted amount (15 significant digits), the ECB reference date and when the next publication is expected. Rates are cached until that publication. Reference rates are for information, not transaction rates.',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['frankfurter'],
  input: t.Object(
    {
      from: code('ISO 4217 code of the source currency, e.g. USD.'),
      to: code('ISO 4217 code of the target currency, e.g. EUR.'),
      amount: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e15,
          default: 1,
          description: 'Amount in the source currency (default 1).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { base: 'from', target: 'to', quote: 'to', value: 'amount' } },
  output: t.Object({
    from: t.String(),
    to: t.String(),
    amount: t.Number(),
    rate: t.Number({ description: 'Units of `to` per 1 `from`.' }),
    inverse_rate: t.Number({ description: 'Units of `from` per 1 `to` (15 significant digits).' }),
    result: t.Number({ description: 'amount × rate (15 significant digits).' }),
    date: t.String({ description: 'ECB reference date of the rate (YYYY-MM-DD).' }),
    next_update: t.String({
      description:
        'When the next ECB publication is expected (16:00 Frankfurt time on the next TARGET working day), ISO 8601 UTC.',
    }),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: '100 USD in EUR',
      input: { from: 'USD', to: 'EUR', amount: 100 },
      output: {
        from: 'USD',
        to: 'EUR',
        amount: 100,
        rate: 0.92,
        inverse_rate: 1.08695652173913,
        result: 92,
        date: '2024-05-02',
        next_update: '2024-05-03T14:00:00.000Z',
        attribution: {
          source: 'European Central Bank euro reference rates, via Frankfurter (frankfurter.dev)',
          url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
          license: 'ECB statistics, free reuse with source acknowledged',
          terms: 'reference rates for information only, not transaction rates',
        },
      },
    },
  ],
})
