/**
 * Every enum of every manifest (top level and nested) answers a wrong value with a message that lists all its
 * allowed values, and a near miss with "did you mean"; TypeBox's "Expected union value" never reaches the client.
 * Checked on the validation step itself for all services, and over HTTP (422 before any payment) for some.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { entries } from '../support/entries'
import { literalsOf } from '../../runtime/input/normalize'
import { ServiceError } from '../../runtime/sdk'
import { prepareInput } from '../../runtime/input/validate'
import { resolveTier } from '../../runtime/call/pipeline'
import { refusingFacilitator, startApp, type TestServer } from '../support/server'

type Schema = Record<string, unknown>
interface EnumAt {
  pointer: string
  literals: string[]
  body: (bad: string) => Record<string, unknown>
}

/** Every enum in a schema, with a body that puts a value at its place. */
function enumsOf(schema: Schema, pointer = '', wrap: (v: unknown) => unknown = (v) => v, depth = 0): EnumAt[] {
  if (depth > 8) return []
  const lits = literalsOf(schema)
  const out: EnumAt[] =
    lits.length && pointer ? [{ pointer, literals: lits, body: (bad) => wrap(bad) as Record<string, unknown> }] : []
  if (Array.isArray(schema.anyOf))
    for (const b of schema.anyOf as Schema[])
      if (!literalsOf(b).length) out.push(...enumsOf(b, pointer, wrap, depth + 1))
  for (const [k, s] of Object.entries((schema.properties as Record<string, Schema>) ?? {}))
    out.push(...enumsOf(s, `${pointer}/${k}`, (v) => wrap({ [k]: v }), depth + 1))
  for (const s of Object.values((schema.patternProperties as Record<string, Schema>) ?? {}))
    out.push(...enumsOf(s, `${pointer}/k`, (v) => wrap({ k: v }), depth + 1))
  if (schema.items && typeof schema.items === 'object')
    out.push(...enumsOf(schema.items as Schema, `${pointer}/0`, (v) => wrap([v]), depth + 1))
  return out
}

function detailsOf(schema: TSchema, body: unknown): Array<{ path: string; message: string }> {
  try {
    prepareInput(schema, body)
  } catch (e) {
    if (e instanceof ServiceError && e.status === 422) return e.details as Array<{ path: string; message: string }>
    throw e
  }
  return []
}

const all = entries.flatMap((e) =>
  enumsOf(e.manifest.input as unknown as Schema).map((x) => ({ slug: e.folder, schema: e.manifest.input, ...x })),
)

test('the manifests have enums to check', () => {
  expect(all.length).toBeGreaterThan(60)
  expect(all.some((x) => x.pointer === '/fields/k/type')).toBe(true) // nested in a record (mock-data-generate)
})

describe('a wrong enum value lists the allowed values', () => {
  for (const slug of [...new Set(all.map((x) => x.slug))]) {
    test(slug, () => {
      for (const x of all.filter((y) => y.slug === slug)) {
        const d = detailsOf(x.schema, x.body('zz-not-a-value')).find((i) => i.path === x.pointer)
        expect({ at: x.pointer, found: !!d }).toEqual({ at: x.pointer, found: true })
        for (const l of x.literals) expect(d!.message).toContain(l)
        expect(d!.message).toContain('"zz-not-a-value"')
        expect(d!.message).not.toContain('Expected union value')
        const word = x.literals.find((l) => /^[a-z][a-z0-9]{3,}$/i.test(l))
        if (word) {
          const miss = detailsOf(x.schema, x.body(`${word.slice(0, -1)}${word.at(-1) === 'q' ? 'x' : 'q'}`)).find(
            (i) => i.path === x.pointer,
          )
          expect(miss?.message ?? '').toMatch(/did you mean [^ ]+\?$/)
        }
      }
    })
  }
})

test('case and separators do not matter; punctuation enums match exactly', () => {
  const pc = entries.find((e) => e.folder === 'percentage-calc')!.manifest.input
  expect(prepareInput(pc, { op: ' Percent Change ', from: 1, to: 2 })).toMatchObject({ op: 'percent_change' })
  const mock = entries.find((e) => e.folder === 'mock-data-generate')!.manifest.input
  const hostile = prepareInput(mock, JSON.parse('{"fields":{"__proto__":{"type":"Integer"},"a":"int"}}')) as {
    fields: object
  }
  expect(Object.getPrototypeOf(hostile.fields)).toBe(Object.prototype) // canonicalising never goes through the __proto__ setter
  expect(JSON.stringify(hostile.fields)).toBe('{"__proto__":{"type":"int"},"a":"int"}')
  const csv = entries.find((e) => e.folder === 'csv-to-json')!.manifest.input
  expect(detailsOf(csv, { csv: 'a', delimiter: ' ' }).map((i) => i.path)).toEqual(['/delimiter'])
})

test('nested field aliases rename inside arrays and records; the canonical field wins', () => {
  const debts = entries.find((e) => e.folder === 'debt-payoff-planner')!.manifest.input
  const d = prepareInput(debts, {
    debts: [
      { balance: 1000, interest_rate: 0.2, minimum_payment: 50 },
      { balance: 500, apr: 0.1, rate: 0.9, min_payment: 20 },
    ],
  }) as { debts: Array<Record<string, unknown>> }
  expect(d.debts[0]).toEqual({ balance: 1000, apr: 0.2, min_payment: 50 })
  expect(d.debts[1]).toMatchObject({ apr: 0.1, rate: 0.9 }) // apr was sent: rate stays unused
  const mock = entries.find((e) => e.folder === 'mock-data-generate')!.manifest.input
  expect(prepareInput(mock, { fields: { a: { kind: 'Integer', min: 1, max: 2 } } })).toMatchObject({
    fields: { a: { type: 'int', min: 1, max: 2 } },
  })
})

test('a tier is matched like any enum, in the query and in the body', () => {
  const tiered = { manifest: { kind: 'tiered' }, defaultTier: 'standard' } as never
  expect(resolveTier(tiered, new URL('http://x/api/v1/explain-code?tier=Quick'), '')).toBe('quick')
  expect(resolveTier(tiered, new URL('http://x/api/v1/explain-code'), '{"code":"x","tier":" PRO "}')).toBe('pro')
  expect(() => resolveTier(tiered, new URL('http://x/api/v1/explain-code?tier=gold'), '')).toThrow(
    'tier must be one of quick, standard, pro',
  )
})

test('errors name the range of a number and the shapes a union accepts', () => {
  const cal = entries.find((e) => e.folder === 'calendar-month')!.manifest.input
  expect(detailsOf(cal, { year: 2024, month: 13 })).toEqual([
    { path: '/month', message: 'must be between 1 and 12 (got 13)' },
  ])
  expect(detailsOf(cal, { month: 2 })[0]).toEqual({
    path: '/year',
    message: 'is required: an integer between 1 and 9999',
  })
  expect(detailsOf(cal, { yaer: 2024, month: 2 })[0]).toEqual({
    path: '/year',
    message: 'is required: an integer between 1 and 9999 (you sent "yaer"; did you mean year?)',
  })
  const uuid = entries.find((e) => e.folder === 'uuid-generate')!.manifest.input
  expect(detailsOf(uuid, { version: '4' })).toEqual([
    { path: '/version', message: 'must be one of 4, 5 (got a string)' },
  ])
  const week = entries.find((e) => e.folder === 'iso-week-date')!.manifest.input
  expect(detailsOf(week, { date: '2024/01/01' })[0].message).toStartWith(
    'must match the pattern ^\\d{4}-\\d{2}-\\d{2}$ (A calendar date YYYY-MM-DD',
  )
  // No TypeBox wording ("Expected ...") for any wrong value of any top-level field of any service.
  const raw: string[] = []
  for (const e of entries) {
    for (const k of Object.keys((e.manifest.input as unknown as Schema).properties as object)) {
      for (const v of [{}, [], 'x', 1.5, -1e20, 1e20, true, null, '', [{}], [1, 'a']]) {
        for (const d of detailsOf(e.manifest.input, { [k]: v }))
          if (/^Expected|union value/.test(d.message)) raw.push(`${e.folder}${d.path}: ${d.message}`)
      }
    }
  }
  expect(raw).toEqual([])
  const mock = entries.find((e) => e.folder === 'mock-data-generate')!.manifest.input
  expect(detailsOf(mock, { fields: { a: 42 } })[0].message).toMatch(
    /^must be one of id, int, .*, or an object \(got 42\)$/,
  )
})

describe('over HTTP, before any payment', () => {
  let s: TestServer
  const facilitator = refusingFacilitator()
  beforeAll(async () => {
    s = await startApp({ facilitator })
  })
  afterAll(async () => {
    await s?.stop()
  })

  test('the 422 has the one error shape and the facilitator is never asked', async () => {
    const r = await s.post(
      `/api/v1/percentage-calc`,
      { op: 'percnt-of', from: 1, to: 2 },
      { 'payment-signature': 'e30=' },
    )
    expect(r.status).toBe(422)
    const body = (await r.json()) as {
      error: { code: string; message: string; details: Array<{ path: string; message: string }> }
      request_id: string
    }
    expect(body.error.code).toBe('INVALID_INPUT')
    expect(body.error.details).toEqual([
      {
        path: '/op',
        message:
          'must be one of percent_of, percent_change, what_percent, tip, add_percent, subtract_percent (got "percnt-of"); did you mean percent_of?',
      },
    ])
    expect(body.request_id).toStartWith('req_')
    const v = await s.post(
      `/api/v1/sales-tax-vat-calculator`,
      { amount: 100, region: 'Germny' },
      { 'payment-signature': 'e30=' },
    )
    expect(v.status).toBe(422)
    expect(((await v.json()) as { error: { message: string } }).error.message).toEndWith('did you mean DE?')
    expect(facilitator.calls).toBe(0)
  })
})
