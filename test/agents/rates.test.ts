/**
 * One rate rule across the finance services: every rate field says which unit it takes and every service with
 * rates has the same `rate_unit` field (decimal by default, percent on request, "fraction" accepted). A value that
 * only makes sense in the other unit is a 422 that says what to send, never silently misread.
 */
import { expect, test } from 'bun:test'
import { entries } from '../support/entries'
import { ServiceError, testContext } from '../../runtime/sdk'
import { prepareInput } from '../../runtime/input/validate'

type Schema = Record<string, any>
const RATE = /(^|_)(rate|apr|ytm|volatility|yield|return|inflation|risk_free|win_prob|fixed_fraction)($|_)/

/** Rate-like numeric fields of a schema, nested ones included (debts[].apr). */
function rateFields(props: Record<string, Schema> = {}, pre = ''): Array<[string, Schema]> {
  return Object.entries(props).flatMap(([k, p]): Array<[string, Schema]> => {
    if (p.type === 'array' && p.items?.properties) return rateFields(p.items.properties, `${pre}${k}[].`)
    return (p.type === 'number' || p.type === 'integer') && RATE.test(k) && k !== 'rate_unit' ? [[`${pre}${k}`, p]] : []
  })
}

const finance = entries.filter((e) => e.manifest.category === 'finance' || e.manifest.category === 'crypto')
const withRates = finance
  .map((e) => ({
    slug: e.folder,
    input: e.manifest.input as unknown as Schema,
    rates: rateFields((e.manifest.input as unknown as Schema).properties),
  }))
  .filter((x) => x.rates.length)

test('every finance service with a rate has the one rate_unit field and says the unit on each rate', () => {
  expect(withRates.length).toBeGreaterThan(10)
  const problems: string[] = []
  for (const s of withRates) {
    const ru = s.input.properties.rate_unit
    if (!ru) {
      problems.push(`${s.slug}: no rate_unit`)
      continue
    }
    if (JSON.stringify(ru.anyOf.map((x: Schema) => x.const)) !== '["decimal","percent"]' || ru.default !== 'decimal')
      problems.push(`${s.slug}: rate_unit differs`)
    const aliases = (s.input['x-aliases'] as Schema | undefined)?.values?.rate_unit
    if (aliases?.fraction !== 'decimal') problems.push(`${s.slug}: rate_unit does not accept "fraction"`)
    for (const [name, p] of s.rates)
      if (!/decimal|fraction/.test(p.description ?? '') || !/rate_unit/.test(p.description ?? ''))
        problems.push(`${s.slug}.${name}: the description does not say decimal vs percent`)
  }
  expect(problems).toEqual([])
})

async function call(slug: string, body: Record<string, unknown>) {
  const e = entries.find((x) => x.folder === slug)!
  try {
    return await e.handler!(prepareInput(e.manifest.input, body) as never, testContext({ service: slug, tier: 'flat' }))
  } catch (err) {
    if (err instanceof ServiceError) return { status: err.status, message: err.message }
    throw err
  }
}

test('a percent sent where a decimal is expected is refused with the value to send', async () => {
  // position-pnl: a 0.1 fee rate would be 10 % per side; 0.1 % is 0.001.
  expect(
    await call('position-pnl-calculator', { entry_price: 100, exit_price: 110, size: 1, fee_rate: 0.1 }),
  ).toMatchObject({ status: 422, message: expect.stringContaining('send 0.001 or set rate_unit: "percent"') })
  expect(await call('loan-amortization-schedule', { principal: 1000, apr: 6.5, term_years: 1 })).toMatchObject({
    status: 422,
    message: expect.stringContaining('send 0.065'),
  })
  expect(await call('kelly-position-sizing', { win_prob: 55, win_loss_ratio: 1 })).toMatchObject({
    status: 422,
    message: expect.stringContaining('send 0.55'),
  })
})

test('the same value in percent with rate_unit gives the decimal answer', async () => {
  const dec = (await call('compound-interest-projection', {
    principal: 1000,
    annual_rate: 0.05,
    years: 2,
    compounds_per_year: 1,
  })) as Record<string, unknown>
  const pct = (await call('compound-interest-projection', {
    principal: 1000,
    annual_rate: 5,
    years: 2,
    compounds_per_year: 1,
    rate_unit: 'Percent',
  })) as Record<string, unknown>
  const frac = (await call('compound-interest-projection', {
    principal: 1000,
    annual_rate: 0.05,
    years: 2,
    compounds_per_year: 1,
    rate_unit: 'fraction',
  })) as Record<string, unknown>
  // 1000 × 1.05² = 1102.5
  expect(dec.final_balance).toBe(1102.5)
  expect(pct.final_balance).toBe(1102.5)
  expect(frac.final_balance).toBe(1102.5)
})
