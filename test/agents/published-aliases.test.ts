/**
 * Aliases are discoverable where agents look: /services, OpenAPI and the full Bazaar extension in the 402's JSON body
 * (the PAYMENT-REQUIRED header carries a smaller form of it, within its budget: test/http/header-budget.test.ts).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodeB64Json, startApp, type TestServer } from '../support/server'
import { buildCatalog } from '../../runtime/catalog/index'
import { loadConfig } from '../../runtime/config'
import { categories, entries } from '../support/entries'
import { defineService, flat, t } from '../../runtime/sdk'
import { PAYMENT_REQUIRED_BUDGET } from '../../runtime/pay/server/challenge'

let s: TestServer
beforeAll(async () => {
  s = await startApp()
})
afterAll(async () => {
  await s?.stop()
})

type Json = Record<string, any>

test('/services and OpenAPI publish the declared aliases and the enum matching rule', async () => {
  const services = ((await (await s.fetch(`/services`)).json()) as Json).services as Json[]
  const cal = services.find((x) => x.slug === 'calendar-month')!.input_schema
  expect(cal['x-aliases'].fields.week_start).toBe('first_weekday')
  expect(cal['x-enum-matching']).toContain('case-insensitively')
  expect(cal.properties.first_weekday['x-field-aliases']).toContain('week_start')
  expect(cal.properties.first_weekday.description).toContain('"mon" = monday')
  const openapi = (await (await s.fetch(`/openapi/full.json`)).json()) as Json
  const vat = openapi.paths['/api/v1/sales-tax-vat-calculator'].post.requestBody.content['application/json'].schema
  expect(vat['x-aliases'].values.region.Germany).toBe('DE')
  expect(vat['x-aliases'].values.region.California).toBe('US-CA')
  expect(openapi.paths['/api/v1/stats-toolkit'].post.responses['200'].headers['X-Ignored-Fields'].schema.type).toBe(
    'string',
  )
})

test("the full Bazaar schema in the 402's body carries them; the header's smaller form stays within its budget", async () => {
  const r = await s.post(`/api/v1/percentage-calc`, {})
  expect(r.status).toBe(402)
  const body = (await r.json()) as Json
  expect(JSON.stringify(body.extensions.bazaar)).toContain('"x_is_what_percent_of_y":"what_percent"')
  const header = r.headers.get('payment-required')!
  expect(header.length).toBeLessThanOrEqual(PAYMENT_REQUIRED_BUDGET)
  // The header's form keeps the body's fields, without the aliases and descriptions.
  const small = decodeB64Json(header).extensions.bazaar.schema.properties.input.properties.body
  expect(Object.keys(small.properties)).toEqual(
    Object.keys(body.extensions.bazaar.schema.properties.input.properties.body.properties),
  )
  expect(JSON.stringify(small)).not.toContain('x-aliases')
})

test('boot refuses aliases that point at nothing, and accepts every shipped one', () => {
  const { config } = loadConfig({}, '')
  expect(buildCatalog(entries, config, true, categories).problems).toEqual([])
  const manifest = defineService({
    slug: 'bad-alias',
    name: 'x',
    description: 'x',
    category: 'text',
    kind: 'utility',
    method: 'POST',
    pricing: flat(0.001),
    model: 'none',
    input: t.Object({ mode: t.Union([t.Literal('a'), t.Literal('b')]), items: t.Array(t.Object({ n: t.Number() })) }),
    output: t.Object({}),
    examples: [],
    aliases: {
      fields: { kind: 'nope', mode: 'mode', 'items[].m': 'n', 'items[].x': 'nope', 'rows[].y': 'n' },
      values: { mode: { c: 'z', B: 'a' }, other: { d: 'a' } },
    },
  })
  const text = buildCatalog([{ folder: 'bad-alias', manifest, handler: null }], config, true, categories).problems.join(
    '\n',
  )
  expect(text).toContain("field alias 'kind' points at 'nope'")
  expect(text).toContain("field alias 'mode' is itself an input field")
  expect(text).not.toContain("'items[].m'")
  expect(text).toContain("field alias 'items[].x' points at 'nope', which is not a field at items[]")
  expect(text).toContain("field alias 'rows[].y': no object at 'rows[]'")
  expect(text).toContain("value alias 'c' of mode points at 'z'")
  expect(text).toContain("value aliases for 'other', which is not an enum field")
  expect(text).toContain("value alias 'B' of mode is already one of its values")
})
