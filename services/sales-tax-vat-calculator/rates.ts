/**
 * Standard VAT/GST rates in force on TABLE_DATE (percent). EU: European Commission, "VAT rates applied in the
 * Member States of the European Union" (Taxation and Customs Union), including Finland 25.5 % (from 2024-09-01),
 * Slovakia 23 % (2025-01-01), Estonia 24 % (2025-07-01) and Romania 21 % (2025-08-01). Others: national tax authorities.
 * Reduced rates, regional surcharges and US sales taxes are not in the table: send a custom `rate`.
 */
export const TABLE_DATE = '2025-08-01'

export const RATES: Record<string, { name: string; pct: number; tax: string }> = {
  AT: { name: 'Austria', pct: 20, tax: 'VAT' },
  BE: { name: 'Belgium', pct: 21, tax: 'VAT' },
  BG: { name: 'Bulgaria', pct: 20, tax: 'VAT' },
  HR: { name: 'Croatia', pct: 25, tax: 'VAT' },
  CY: { name: 'Cyprus', pct: 19, tax: 'VAT' },
  CZ: { name: 'Czechia', pct: 21, tax: 'VAT' },
  DK: { name: 'Denmark', pct: 25, tax: 'VAT' },
  EE: { name: 'Estonia', pct: 24, tax: 'VAT' },
  FI: { name: 'Finland', pct: 25.5, tax: 'VAT' },
  FR: { name: 'France', pct: 20, tax: 'VAT' },
  DE: { name: 'Germany', pct: 19, tax: 'VAT' },
  GR: { name: 'Greece', pct: 24, tax: 'VAT' },
  HU: { name: 'Hungary', pct: 27, tax: 'VAT' },
  IE: { name: 'Ireland', pct: 23, tax: 'VAT' },
  IT: { name: 'Italy', pct: 22, tax: 'VAT' },
  LV: { name: 'Latvia', pct: 21, tax: 'VAT' },
  LT: { name: 'Lithuania', pct: 21, tax: 'VAT' },
  LU: { name: 'Luxembourg', pct: 17, tax: 'VAT' },
  MT: { name: 'Malta', pct: 18, tax: 'VAT' },
  NL: { name: 'Netherlands', pct: 21, tax: 'VAT' },
  PL: { name: 'Poland', pct: 23, tax: 'VAT' },
  PT: { name: 'Portugal (mainland)', pct: 23, tax: 'VAT' },
  RO: { name: 'Romania', pct: 21, tax: 'VAT' },
  SK: { name: 'Slovakia', pct: 23, tax: 'VAT' },
  SI: { name: 'Slovenia', pct: 22, tax: 'VAT' },
  ES: { name: 'Spain (mainland and Balearics)', pct: 21, tax: 'VAT' },
  SE: { name: 'Sweden', pct: 25, tax: 'VAT' },
  GB: { name: 'United Kingdom', pct: 20, tax: 'VAT' },
  CH: { name: 'Switzerland', pct: 8.1, tax: 'VAT' },
  NO: { name: 'Norway', pct: 25, tax: 'VAT' },
  IS: { name: 'Iceland', pct: 24, tax: 'VAT' },
  AU: { name: 'Australia', pct: 10, tax: 'GST' },
  NZ: { name: 'New Zealand', pct: 15, tax: 'GST' },
  SG: { name: 'Singapore', pct: 9, tax: 'GST' },
  JP: { name: 'Japan', pct: 10, tax: 'consumption tax' },
  CA: { name: 'Canada (federal GST only; provinces add PST/HST)', pct: 5, tax: 'GST' },
  ZA: { name: 'South Africa', pct: 15, tax: 'VAT' },
}

/**
 * US state-level sales tax BASE rates (percent) in force on US_TABLE_DATE, ISO 3166-2 codes (US-CA). Source: Tax
 * Foundation, "State and Local Sales Tax Rates, Midyear 2025" (state rate column), which compiles each state's
 * revenue department; it includes Louisiana 5 % (from 2025-01-01), and, as that table does, the statewide uniform
 * local add-ons of California (7.25), Utah (6.1) and Virginia (5.3). County, city and district taxes are NOT
 * included: for a combined rate send `rate`. AK, DE, MT, NH and OR have no state sales tax (0).
 */
export const US_TABLE_DATE = '2025-07-01'

const US_STATES: Array<[string, string, number]> = [
  ['AL', 'Alabama', 4],
  ['AK', 'Alaska', 0],
  ['AZ', 'Arizona', 5.6],
  ['AR', 'Arkansas', 6.5],
  ['CA', 'California', 7.25],
  ['CO', 'Colorado', 2.9],
  ['CT', 'Connecticut', 6.35],
  ['DE', 'Delaware', 0],
  ['DC', 'District of Columbia', 6],
  ['FL', 'Florida', 6],
  ['GA', 'Georgia', 4],
  ['HI', 'Hawaii', 4],
  ['ID', 'Idaho', 6],
  ['IL', 'Illinois', 6.25],
  ['IN', 'Indiana', 7],
  ['IA', 'Iowa', 6],
  ['KS', 'Kansas', 6.5],
  ['KY', 'Kentucky', 6],
  ['LA', 'Louisiana', 5],
  ['ME', 'Maine', 5.5],
  ['MD', 'Maryland', 6],
  ['MA', 'Massachusetts', 6.25],
  ['MI', 'Michigan', 6],
  ['MN', 'Minnesota', 6.875],
  ['MS', 'Mississippi', 7],
  ['MO', 'Missouri', 4.225],
  ['MT', 'Montana', 0],
  ['NE', 'Nebraska', 5.5],
  ['NV', 'Nevada', 6.85],
  ['NH', 'New Hampshire', 0],
  ['NJ', 'New Jersey', 6.625],
  ['NM', 'New Mexico', 4.875],
  ['NY', 'New York', 4],
  ['NC', 'North Carolina', 4.75],
  ['ND', 'North Dakota', 5],
  ['OH', 'Ohio', 5.75],
  ['OK', 'Oklahoma', 4.5],
  ['OR', 'Oregon', 0],
  ['PA', 'Pennsylvania', 6],
  ['RI', 'Rhode Island', 7],
  ['SC', 'South Carolina', 6],
  ['SD', 'South Dakota', 4.2],
  ['TN', 'Tennessee', 7],
  ['TX', 'Texas', 6.25],
  ['UT', 'Utah', 6.1],
  ['VT', 'Vermont', 6],
  ['VA', 'Virginia', 5.3],
  ['WA', 'Washington', 6.5],
  ['WV', 'West Virginia', 6],
  ['WI', 'Wisconsin', 5],
  ['WY', 'Wyoming', 4],
]
for (const [code, name, pct] of US_STATES)
  RATES[`US-${code}`] = { name: `${name}, US (state base rate; local taxes not included)`, pct, tax: 'sales tax' }

/** Table date of an entry. */
export const tableDateOf = (code: string | null) => (code?.startsWith('US-') ? US_TABLE_DATE : TABLE_DATE)

/** Code spellings mapped by the handler: EL (EU code for Greece), UK (for GB). */
export const ALIASES: Record<string, string> = { EL: 'GR', UK: 'GB' }

/** `US` alone is accepted by the schema so the handler can say which code to send instead. */
export const REGION_CODES = [...Object.keys(RATES), ...Object.keys(ALIASES), 'US']

/** English names (and common variants) -> code, published as value aliases of `region`. */
export const REGION_NAMES: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(RATES)
      .filter(([c]) => !c.startsWith('US-'))
      .map(([c, e]) => [e.name.replace(/\s*\(.*\)$/, ''), c]),
  ),
  ...Object.fromEntries(US_STATES.map(([c, name]) => [name, `US-${c}`])),
  'Czech Republic': 'CZ',
  Holland: 'NL',
  'The Netherlands': 'NL',
  'Great Britain': 'GB',
  Britain: 'GB',
  England: 'GB',
  Scotland: 'GB',
  Wales: 'GB',
  'Northern Ireland': 'GB',
  Portugal: 'PT',
  Spain: 'ES',
  Canada: 'CA',
  'United States': 'US',
  USA: 'US',
  America: 'US',
  'United States of America': 'US',
}
