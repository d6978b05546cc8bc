import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'
import { REGION_CODES, REGION_NAMES, TABLE_DATE, US_TABLE_DATE } from './rates'

const num = (description: string) => t.Number({ description })

export default defineService({
  slug: 'sales-tax-vat-calculator',
  name: 'Sales tax / VAT calculator',
  description: `Adds VAT/GST/sales tax to a net amount (mode "add": tax = net × rate, gross = net + tax) or extracts it from a gross amount (mode "extract": net = gross/(1 + rate), tax = gross − net), rounding to the currency's minor unit (half away from zero). Built-in standard-rate table dated ${TABLE_DATE} (output.table_date): all 27 EU member states (European Commission VAT rates), the UK, Switzerland, Norway, Iceland, Australia, New Zealand, Singapore, Japan, Canada (federal GST only) and South Africa, by ISO 3166 alpha-2 code (EL and UK accepted) or English name ("Germany", case-insensitive); and the 50 US states plus DC by ISO 3166-2 code ("US-CA") or name ("California"): the state BASE sales tax rate in force on ${US_TABLE_DATE} (Tax Foundation, State and Local Sales Tax Rates, Midyear 2025), without county/city taxes. Any other rate (combined US state+local sales tax, reduced rates): send \`rate\` (decimal unless rate_unit is "percent"), which overrides the table.`,
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      amount: t.Number({
        minimum: 0,
        maximum: 1e13,
        description: 'Net amount (mode "add") or gross amount (mode "extract"), ≥ 0.',
      }),
      mode: t.Optional(
        t.Union([t.Literal('add'), t.Literal('extract')], {
          default: 'add',
          description:
            '"add" (default): amount is net, tax is added; "extract": amount is gross (tax included), tax is taken out.',
        }),
      ),
      region: t.Optional(
        t.Union(
          REGION_CODES.map((c) => t.Literal(c)),
          {
            description: `Country code for the standard rate in the ${TABLE_DATE} table (e.g. DE, FR, GB, AU), an English country name (Germany), or a US state as US-CA / California (state base rate, ${US_TABLE_DATE}). Required unless rate is given.`,
          },
        ),
      ),
      rate: t.Optional(
        t.Number({
          description:
            "Custom tax rate (decimal 0 … 1, e.g. 0.0825 = 8.25 %; or percent with rate_unit). Overrides the region's table rate.",
        }),
      ),
      currency_decimals: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 4,
          default: 2,
          description: 'Minor-unit decimals for rounding (2 for EUR/GBP/USD, 0 for JPY). Default 2.',
        }),
      ),
      rate_unit: rateUnitField('rate'),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      country: 'region',
      state: 'region',
      country_code: 'region',
      jurisdiction: 'region',
      tax_rate: 'rate',
      vat_rate: 'rate',
      net: 'amount',
      price: 'amount',
    },
    values: {
      ...RATE_UNIT_ALIASES,
      region: REGION_NAMES,
      mode: {
        net: 'add',
        add_tax: 'add',
        exclusive: 'add',
        gross: 'extract',
        extract_tax: 'extract',
        inclusive: 'extract',
        reverse: 'extract',
      },
    },
  },
  output: t.Object({
    mode: t.String({ description: 'add or extract.' }),
    net: num('Amount before tax.'),
    tax: num('Tax amount.'),
    gross: num('Amount including tax.'),
    rate: num('Rate applied (decimal).'),
    rate_pct: num('Rate applied in percent.'),
    region: t.Union([t.String(), t.Null()], {
      description: 'Normalised country code, or null for a custom rate without region.',
    }),
    region_name: t.Union([t.String(), t.Null()], { description: 'Country name, or null.' }),
    tax_name: t.String({ description: 'VAT, GST, consumption tax, or "sales tax" for a custom rate.' }),
    rate_source: t.Union([t.Literal('table'), t.Literal('custom')], {
      description: '"table" (built-in standard rate) or "custom" (the rate field).',
    }),
    table_date: t.String({
      description:
        "Date (YYYY-MM-DD) on which the built-in table's rates were in force (the US state table has its own date).",
    }),
    currency_decimals: t.Integer({ description: 'Decimals used for rounding.' }),
  }),
  examples: [
    {
      name: 'German VAT on 100',
      input: { amount: 100, mode: 'add', region: 'DE' },
      output: {
        mode: 'add',
        net: 100,
        tax: 19,
        gross: 119,
        rate: 0.19,
        rate_pct: 19,
        region: 'DE',
        region_name: 'Germany',
        tax_name: 'VAT',
        rate_source: 'table',
        table_date: TABLE_DATE,
        currency_decimals: 2,
      },
    },
  ],
})
