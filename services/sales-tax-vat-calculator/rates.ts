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

/** Accepted aliases: EL (EU code for Greece), UK (for GB). */
export const ALIASES: Record<string, string> = { EL: 'GR', UK: 'GB' }

export const REGION_CODES = [...Object.keys(RATES), ...Object.keys(ALIASES)]
