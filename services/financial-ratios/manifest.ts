import { defineService, flat, t } from '../../runtime/sdk'

const ratio = (description: string) =>
  t.Object(
    {
      value: t.Union([t.Number(), t.Null()], {
        description:
          'The ratio (a plain multiple, or a decimal fraction for margins and returns); null when it cannot be computed.',
      }),
      percent: t.Union([t.Number(), t.Null()], {
        description:
          'value × 100 for fraction-type ratios (margins, returns, debt ratio); null for multiples or when value is null.',
      }),
      formula: t.String({ description: 'Formula used.' }),
      reason: t.Union([t.String(), t.Null()], {
        description: 'Why value is null (missing input or zero denominator); null when computed.',
      }),
    },
    { description },
  )
const money = (description: string, signed = false) =>
  t.Optional(t.Number({ ...(signed ? { minimum: -1e15 } : { minimum: 0 }), maximum: 1e15, description }))

export default defineService({
  slug: 'financial-ratios',
  name: 'Financial ratios',
  description:
    'Liquidity, leverage, profitability and coverage ratios from financial-statement figures (all in the same currency and period): current, quick ((current assets − inventory)/current liabilities), debt-to-equity, debt ratio, equity multiplier, gross/operating/net margin (EBIT used as operating income), ROA and ROE (on period-end balances), asset turnover, interest coverage (EBIT/interest expense). Each ratio is null with a reason when an input is missing or its denominator is zero; fraction-type ratios also come as percents. Give any subset of fields; at least one ratio must be computable.',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      current_assets: money('Total current assets (≥ 0).'),
      current_liabilities: money('Total current liabilities (≥ 0).'),
      inventory: money('Inventories (≥ 0, at most current_assets).'),
      total_debt: money('Interest-bearing debt, short + long term (≥ 0).'),
      total_equity: money("Total shareholders' equity (may be negative).", true),
      total_assets: money('Total assets (≥ 0).'),
      revenue: money('Revenue / net sales for the period (≥ 0).'),
      cogs: money('Cost of goods sold (≥ 0).'),
      net_income: money('Net income (may be negative).', true),
      ebit: money('Operating income / EBIT (may be negative).', true),
      interest_expense: money('Interest expense for the period (≥ 0).'),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      sales: 'revenue',
      cost_of_goods_sold: 'cogs',
      net_profit: 'net_income',
      operating_income: 'ebit',
      equity: 'total_equity',
      debt: 'total_debt',
      assets: 'total_assets',
    },
  },
  output: t.Object({
    ratios: t.Object({
      current_ratio: ratio('current_assets / current_liabilities.'),
      quick_ratio: ratio('(current_assets − inventory) / current_liabilities.'),
      debt_to_equity: ratio('total_debt / total_equity.'),
      debt_ratio: ratio('total_debt / total_assets.'),
      equity_multiplier: ratio('total_assets / total_equity.'),
      gross_margin: ratio('(revenue − cogs) / revenue.'),
      operating_margin: ratio('ebit / revenue.'),
      net_margin: ratio('net_income / revenue.'),
      roa: ratio('net_income / total_assets.'),
      roe: ratio('net_income / total_equity.'),
      asset_turnover: ratio('revenue / total_assets.'),
      interest_coverage: ratio('ebit / interest_expense.'),
    }),
    computed: t.Integer({ description: 'How many ratios have a value.' }),
    warnings: t.Array(t.String(), { description: 'Caveats, e.g. negative equity.' }),
  }),
  examples: [
    {
      name: 'Small company',
      input: { current_assets: 500, current_liabilities: 250, inventory: 100, revenue: 1000, cogs: 600 },
      output: {
        ratios: {
          current_ratio: { value: 2, percent: null, formula: 'current_assets / current_liabilities', reason: null },
          quick_ratio: {
            value: 1.6,
            percent: null,
            formula: '(current_assets − inventory) / current_liabilities',
            reason: null,
          },
          debt_to_equity: {
            value: null,
            percent: null,
            formula: 'total_debt / total_equity',
            reason: 'missing total_debt, total_equity',
          },
          debt_ratio: {
            value: null,
            percent: null,
            formula: 'total_debt / total_assets',
            reason: 'missing total_debt, total_assets',
          },
          equity_multiplier: {
            value: null,
            percent: null,
            formula: 'total_assets / total_equity',
            reason: 'missing total_assets, total_equity',
          },
          gross_margin: { value: 0.4, percent: 40, formula: '(revenue − cogs) / revenue', reason: null },
          operating_margin: { value: null, percent: null, formula: 'ebit / revenue', reason: 'missing ebit' },
          net_margin: { value: null, percent: null, formula: 'net_income / revenue', reason: 'missing net_income' },
          roa: {
            value: null,
            percent: null,
            formula: 'net_income / total_assets',
            reason: 'missing net_income, total_assets',
          },
          roe: {
            value: null,
            percent: null,
            formula: 'net_income / total_equity',
            reason: 'missing net_income, total_equity',
          },
          asset_turnover: {
            value: null,
            percent: null,
            formula: 'revenue / total_assets',
            reason: 'missing total_assets',
          },
          interest_coverage: {
            value: null,
            percent: null,
            formula: 'ebit / interest_expense',
            reason: 'missing ebit, interest_expense',
          },
        },
        computed: 3,
        warnings: [],
      },
    },
  ],
})
