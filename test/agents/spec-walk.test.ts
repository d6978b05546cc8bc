/**
 * Agents call from the spec's table: for every §4.4 row with fields (test/data/spec-services.json), calls built only
 * from the row's field names and the words of its last column are accepted as sent (no field ignored, canonical
 * values reach the handler) and, for the services that run locally, answer without error and match the output
 * schema. Services that fetch, call upstreams or a model are checked up to validation (their paid path is covered by
 * test/net and test/model). A few calls need a field the row does not name: NEEDS_MORE lists them with the reason.
 * The debts of debt-payoff-planner need balance, apr and min_payment each: the row names `debts` but not a debt's shape.
 */
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { entries } from '../support/entries'
import { testContext } from '../../runtime/sdk'
import { issues, prepareInputReport } from '../../runtime/input/validate'
import { enumKey } from '../../runtime/input/enum-match'

interface Row {
  slug: string
  fields?: Array<{ name: string; type: string }>
  behaviour?: string | null
}
const rows = (
  JSON.parse(readFileSync(join(import.meta.dir, '..', 'data', 'spec-services.json'), 'utf8')) as { services: Row[] }
).services.filter((r) => r.fields?.length)
const bySlug = new Map(entries.map((e) => [e.folder, e]))

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const formPdf = (
  JSON.parse(
    readFileSync(join(import.meta.dir, '..', '..', 'services', 'pdf-form-fill', 'fixtures.json'), 'utf8'),
  ) as Array<{ input: { pdf_b64: string } }>
)[0].input.pdf_b64
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'
const TEXT =
  'The quick brown fox jumps over the lazy dog. Email ada@example.com or call +1 415 555 2671 about #launch on 2025-01-02.'

/**
 * The calls, per row: only the row's field names (plus words its last column names as a capability, e.g. `key`
 * for "HMAC with a key"), with values written the way the table writes them.
 */
const CALLS: Record<string, Array<Record<string, unknown>>> = {
  'hash-digest': [
    { text: 'abc', algo: 'md5' },
    { text: 'abc', algo: 'sha1' },
    { text: 'abc', algo: 'SHA256' },
    { text: 'abc', algo: 'sha512' },
    { text: 'abc', algo: 'sha256', key: 'secret' },
    { text: 'abc', algo: 'sha256', output: 'base64' },
    { text: 'abc', algo: 'sha256', encoding: 'hex' },
  ],
  'base64-hex-codec': [
    { input: 'hello', op: 'encode', alphabet: 'base64' },
    { input: 'hello', op: 'encode', alphabet: 'base64url' },
    { input: 'hello', op: 'encode', alphabet: 'hex' },
    { input: 'a b&c', op: 'encode', alphabet: 'URL' },
    { input: 'a b&c', op: 'encode', alphabet: 'percent' },
    { input: 'aGVsbG8=', op: 'decode', alphabet: 'base64' },
    { input: 'a%20b', op: 'decode', alphabet: 'url' },
  ],
  'uuid-generate': [
    { version: 4, count: 3 },
    { version: 5, count: 1, name: 'example.com' },
    { version: 4, count: 2, uppercase: true },
    { version: 4, count: 1, no_hyphens: true },
  ],
  'jwt-decode': [{ token: JWT }],
  'text-stats': [{ text: TEXT }],
  slugify: [{ text: 'Héllo Wörld, Again!' }],
  'case-convert': ['upper', 'lower', 'title', 'sentence', 'snake_case', 'camelCase', 'kebab-case', 'CONSTANT'].map(
    (to) => ({ text: 'hello big world', to }),
  ),
  'text-diff': [{ a: 'one\ntwo\nthree', b: 'one\n2\nthree' }],
  'lorem-ipsum': [{ paragraphs: 2 }, { sentences: 3 }, { words: 12 }],
  'json-format': [
    { json: '{"b":1,"a":[1,2]}', indent: 2, sort_keys: true },
    { json: '{"b": 1, "a": [1, 2]}', minify: true },
  ],
  'csv-to-json': [{ csv: 'a,b\n1,2\n3,4' }, { csv: 'a\tb\n1\t2' }],
  'json-to-csv': [
    {
      rows: [
        { a: 1, b: 'x' },
        { a: 2, b: 'y' },
      ],
    },
  ],
  'regex-test': [{ pattern: '(?<word>\\w+)@(\\w+)', text: 'ada@example bob@test', flags: 'g' }],
  'email-validate': [{ email: 'admin@gmail.com' }],
  'luhn-check': [{ number: '4111 1111 1111 1111' }],
  'url-parse': [{ url: 'https://user@example.com:8443/a/b?x=1&y=2#frag' }],
  'ip-info': [{ ip: '192.168.1.1' }, { ip: '2001:4860:4860::8888' }],
  'timestamp-convert': [
    { value: 1700000000, to: 'ISO-8601' },
    { value: 1700000000000, to: 'unix' },
    { value: 1700000000, to: 'ms' },
  ],
  'date-diff': [{ start: '2024-01-01', end: '2024-03-01' }],
  'password-strength': [{ password: 'correct horse battery staple' }],
  'unit-convert': [
    { value: 5, from: 'km', to: 'mile' },
    { value: 2, from: 'kg', to: 'lb' },
    { value: 3, from: 'L', to: 'gal' },
    { value: 1, from: 'GB', to: 'MB' },
    { value: 90, from: 'min', to: 'h' },
    { value: 100, from: 'km/h', to: 'mph' },
    { value: 100, from: 'C', to: 'F' },
    { value: 0, from: 'celsius', to: 'fahrenheit' },
  ],
  'percentage-calc': [
    { op: 'percent-of', from: 15, to: 200 },
    { op: 'percent-change', from: 80, to: 100 },
    { op: 'tip', from: 50, to: 20 },
    { op: 'X-is-what-percent-of-Y', from: 30, to: 120 },
  ],
  'weather-current': [{ lat: 52.52, lon: 13.41 }],
  'weather-forecast': [{ lat: 52.52, lon: 13.41, days: 3 }],
  'air-quality': [{ lat: 52.52, lon: 13.41 }],
  geocode: [{ q: 'Berlin' }],
  'fx-rate': [{ from: 'EUR', to: 'USD', amount: 100 }],
  'crypto-price': [{ ids: 'bitcoin,ethereum', vs: 'usd' }],
  'wikipedia-summary': [{ title: 'Alan Turing' }],
  'hn-search': [
    { query: 'x402', tags: 'story' },
    { query: 'x402', tags: 'comment', sort: 'date' },
  ],
  'dns-lookup': ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'].map((type) => ({ name: 'example.com', type })),
  'ip-geolocate': [{ ip: '8.8.8.8' }],
  'url-metadata': [{ url: 'https://example.com/' }],
  'extract-links': [{ url: 'https://example.com/' }, { url: 'https://example.com/', external_only: true }],
  'extract-emails': [{ url: 'https://example.com/' }],
  'rss-parse': [{ url: 'https://example.com/feed.xml' }],
  'url-word-count': [{ url: 'https://example.com/' }],
  'json-repair': [{ json: '{"a": 1, "b": [1, 2' }],
  'extract-structured': [{ text: TEXT, fields: 'email, phone' }],
  'text-to-sql': [
    { request: 'count users by country', schema: 'users(id, country)', dialect: 'postgresql' },
    { request: 'count users', dialect: 'PostgreSQL' },
  ],
  'sentiment-analyze': [{ text: 'I love it' }],
  'classify-text': [{ text: 'The match went to extra time', labels: 'sports, politics, tech' }],
  translate: [{ text: 'Hello', to: 'fr' }],
  'grammar-fix': [{ text: 'he go to school' }],
  'tone-shift': [{ text: 'send me the report', tone: 'polite' }],
  'keywords-extract': [{ text: TEXT }],
  'calendar-month': [
    { year: 2024, month: 2, first_weekday: 'Monday' },
    { year: 2024, month: 2, first_weekday: 'Sunday' },
  ],
  'iso-week-date': [{ date: '2024-12-30' }],
  'image-rotate-flip': [
    { image_b64: PNG_1x1, angle: 90, flip: 'horizontal' },
    { image_b64: PNG_1x1, angle: 0, flip: 'vertical' },
  ],
  'pdf-form-fill': [{ pdf_b64: formPdf, fields: { name: 'Ada Lovelace' } }],
  'roman-numeral': [{ value: 2024 }, { value: 'MMXXIV' }],
  'number-to-words': [
    { number: 42, form: 'cardinal' },
    { number: 42, form: 'ordinal' },
    { number: 42.5, form: 'currency' },
  ],
  'readability-score': [{ text: TEXT }],
  'keyword-frequency': [{ text: TEXT, top_n: 5 }],
  'markdown-to-html': [{ markdown: '# Title\n\n*hi* <script>x</script>' }],
  'html-to-markdown': [{ html: '<h1>Title</h1><p><b>hi</b></p>' }],
  'pii-redact': [{ text: TEXT }],
  'entity-extract': [{ text: TEXT }],
  'llm-token-estimate': [{ text: TEXT }],
  'csv-dedupe': [{ csv: 'email,name\na@x.io,A\na@x.io,B\nb@x.io,C', keys: ['email'] }],
  'json-schema-infer': [{ samples: [{ id: 1, email: 'a@x.io' }, { id: 2 }] }],
  'jsonschema-validate': [
    { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, instance: { id: 'x' } },
  ],
  'mock-data-generate': [
    { fields: { id: 'integer', name: 'name' }, count: 3, seed: 7, format: 'JSON' },
    { fields: { id: 'id' }, count: 2, seed: 7, format: 'CSV' },
    { fields: { id: 'id' }, count: 2, seed: 7, format: 'NDJSON' },
  ],
  'jsonpath-extract': [{ data: { a: { b: [1, 2], 'c d': 3 } }, paths: ['a.b[0]', "a['c d']"] }],
  'json-yaml-convert': [
    { input: '{"a": 1}', from: 'JSON', to: 'YAML' },
    { input: 'a: 1\n', from: 'YAML', to: 'JSON' },
  ],
  'xml-json-convert': [
    { input: '<a x="1"><b>t</b><b>u</b></a>', from: 'xml', to: 'json' },
    { input: '{"a": {"@x": "1", "#text": "t"}}', from: 'json', to: 'xml' },
  ],
  'data-format-convert': [
    { input: 'a,b\n1,2', from: 'CSV', to: 'JSON' },
    { input: 'a\tb\n1\t2', from: 'TSV', to: 'NDJSON' },
    { input: '[{"a":1}]', from: 'JSON', to: 'JSONL' },
  ],
  'json-diff': [{ a: { x: 1, y: 2 }, b: { x: 1, z: 3 } }],
  'csv-profile': [{ csv: 'a,b\n1,x\n2,\n3,y' }],
  'data-format-validate': [
    { input: '{"a":1}', format: 'JSON' },
    { input: 'a: [1', format: 'YAML' },
    { input: 'a,b\n1,2', format: 'CSV' },
    { input: '<a><b></a>', format: 'XML' },
  ],
  'loan-amortization-schedule': [
    { principal: 200000, apr: 0.065, term_years: 30, extra_payment: 100, start_date: '2025-01-01' },
  ],
  'compound-interest-projection': [
    { principal: 10000, annual_rate: 0.05, years: 10, compounds_per_year: 12, contribution: 100 },
  ],
  'retirement-fire-calculator': [
    {
      current_savings: 100000,
      annual_contribution: 20000,
      expected_return: 0.07,
      inflation: 0.03,
      annual_spend: 40000,
      withdrawal_rate: 0.04,
    },
    {
      current_savings: 100000,
      annual_contribution: 20000,
      expected_return: 0.07,
      inflation: 0.03,
      annual_spend: 40000,
    },
  ],
  'npv-irr-calculator': [{ cashflows: [-1000, 300, 400, 500], discount_rate: 0.1 }],
  'black-scholes-options-pricer': [
    { spot: 100, strike: 100, days_to_expiry: 30, rate: 0.05, volatility: 0.2, type: 'call' },
    { spot: 100, strike: 100, days_to_expiry: 30, rate: 0.05, volatility: 0.2, type: 'put' },
    { spot: 100, strike: 100, days_to_expiry: 30, rate: 0.05, type: 'call', market_price: 3 },
  ],
  'crypto-liquidation-price': [
    { entry_price: 50000, leverage: 10, side: 'long', maintenance_margin_rate: 0.005 },
    { entry_price: 50000, leverage: 10, side: 'short', maintenance_margin_rate: 0.005 },
  ],
  'position-pnl-calculator': [
    { entry_price: 100, exit_price: 110, size: 2, side: 'long', leverage: 5, fee_rate: 0.001 },
    { entry_price: 100, exit_price: 90, size: 2, side: 'short', leverage: 5, fee_rate: 0.0006 },
  ],
  'impermanent-loss-calculator': [{ price_ratio: 2, initial_value: 1000, fees_earned: 10 }],
  'apr-apy-converter': [
    { rate: 0.12, direction: 'APR to APY', compounds_per_year: 12, principal: 1000 },
    { rate: 0.1268, direction: 'apy-to-apr', compounds_per_year: 12, principal: 1000 },
  ],
  'bond-price-yield': [{ face: 1000, coupon_rate: 0.05, years_to_maturity: 10, frequency: 2, ytm: 0.06 }],
  'kelly-position-sizing': [
    { win_prob: 0.55, win_loss_ratio: 1.5, bankroll: 10000, kelly_fraction: 0.5 },
    { win_prob: 0.55, win_loss_ratio: 1.5, bankroll: 10000, kelly_fraction: 0.5, fixed_fraction: 0.02 },
  ],
  'return-cagr-drawdown': [{ series: [100, 110, 105, 120, 130], periods_per_year: 12, risk_free: 0.02 }],
  'financial-ratios': [
    {
      current_assets: 500,
      current_liabilities: 250,
      inventory: 100,
      total_debt: 400,
      total_equity: 600,
      total_assets: 1000,
      revenue: 2000,
      cogs: 1200,
      net_income: 150,
      ebit: 250,
      interest_expense: 25,
    },
  ],
  'tokenomics-fdv-calculator': [{ price: 2, circulating_supply: 1e8, max_supply: 1e9 }],
  'eth-unit-converter': [
    { amount: '1.5', from_unit: 'ether', to_unit: 'gwei', usd_price: 3000 },
    { amount: '1', from_unit: 'ether', to_unit: 'wei' },
  ],
  'eth-unit-convert': ['wei', 'kwei', 'mwei', 'gwei', 'szabo', 'finney', 'ether'].map((to) => ({
    value: '1',
    from: 'ether',
    to,
  })),
  'sales-tax-vat-calculator': [
    { amount: 100, mode: 'add', region: 'DE' },
    { amount: 119, mode: 'extract', region: 'Germany' },
    { amount: 100, mode: 'add', region: 'US-CA' },
  ],
  'debt-payoff-planner': [
    {
      debts: [
        { balance: 5000, apr: 0.2, min_payment: 100 },
        { balance: 2000, apr: 0.15, min_payment: 50 },
      ],
      extra_payment: 200,
      strategy: 'snowball',
    },
    {
      debts: [
        { balance: 5000, apr: 0.2, min_payment: 100 },
        { balance: 2000, apr: 0.15, min_payment: 50 },
      ],
      extra_payment: 200,
      strategy: 'avalanche',
    },
  ],
  'user-agent-parse': [
    {
      ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    },
    { ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
  ],
  'ip-cidr-calc': [
    { cidr: '10.0.0.0/8', contains: '10.1.2.3' },
    { cidr: '2001:db8::/32', contains: '2001:db8::1' },
  ],
  'iban-bic-validate': [{ iban: 'GB82 WEST 1234 5698 7654 32', bic: 'DEUTDEFF' }],
  'stats-toolkit': [
    { data: [2, 4, 4, 4, 5, 5, 7, 9] },
    { data: [1, 2, 3, 4], data2: [2, 4, 6, 9] },
    { data: [1, 2, 3, 4], y: [2, 4, 6, 9] },
  ],
  'wcag-contrast': [{ fg: '#777777', bg: '#ffffff' }],
  'phone-parse': [{ phone: '+14155552671' }],
}

/**
 * Fields a call may send beyond the row's field names: a word of the row's last column names it (checked below:
 * "no hyphens" -> no_hyphens, "minify", "HMAC with a key" -> key, "base64 output" -> output), or it is listed here
 * with the reason the row does not name it. Keep this list short.
 */
const NEEDS_MORE: Record<string, Record<string, string>> = {
  'hn-search': { sort: '"by relevance or date": the natural field for choosing the order' },
  'stats-toolkit': {
    data2: '"optional second series": the declared field',
    y: '"optional second series": the name most agents use (alias of data2)',
  },
  'kelly-position-sizing': { fixed_fraction: '"also fixed-fractional sizing": the fraction risked per trade' },
  'hash-digest': { encoding: '"hex and base64 output": the declared field (output is its alias)' },
}

/** Whether the last column names a field: its words, with -, _ and spaces alike, appear in the text. */
const named = (behaviour: string, field: string) => enumKey(behaviour).includes(enumKey(field))

const runsLocally = (slug: string) => {
  const m = bySlug.get(slug)!.manifest
  return !(m.needs ?? []).some((n) => n === 'model' || n === 'fetch' || n === 'upstream')
}

test("every spec row with fields has calls, and every call uses only the row's fields, words, or a documented extra", () => {
  const uncovered = rows.filter((r) => !CALLS[r.slug]?.length).map((r) => r.slug)
  expect(uncovered).toEqual([])
  const stray: string[] = []
  for (const r of rows) {
    const fields = new Set([...r.fields!.map((f) => f.name), ...Object.keys(NEEDS_MORE[r.slug] ?? {})])
    for (const call of CALLS[r.slug])
      for (const k of Object.keys(call))
        if (!fields.has(k) && !named(r.behaviour ?? '', k)) stray.push(`${r.slug}.${k}`)
  }
  expect(stray).toEqual([])
})

describe('spec table calls', () => {
  for (const r of rows) {
    test(r.slug, async () => {
      const e = bySlug.get(r.slug)
      expect(e?.handler).toBeTruthy()
      for (const call of CALLS[r.slug] ?? []) {
        const label = `${r.slug} ${JSON.stringify(call).slice(0, 120)}`
        let prepared: { input: unknown; ignored: string[] }
        try {
          prepared = prepareInputReport(e!.manifest.input, call)
        } catch (err) {
          throw new Error(`${label}: refused: ${(err as Error).message}`)
        }
        expect({ label, ignored: prepared.ignored }).toEqual({ label, ignored: [] })
        if (!runsLocally(r.slug)) continue
        let out: unknown
        try {
          out = await e!.handler!(
            prepared.input as never,
            testContext({ service: r.slug, tier: 'flat', now: () => new Date('2025-06-01T12:00:00Z') }),
          )
        } catch (err) {
          throw new Error(`${label}: handler failed: ${(err as Error).message}`)
        }
        expect({ label, problems: issues(e!.manifest.output, JSON.parse(JSON.stringify(out))) }).toEqual({
          label,
          problems: [],
        })
      }
    })
  }
})

/** The words of the table reach the handler as the canonical value, and give the known answer. */
test('the table words give the known answers', async () => {
  const run = async (slug: string, body: Record<string, unknown>) => {
    const e = bySlug.get(slug)!
    return (await e.handler!(
      prepareInputReport(e.manifest.input, body).input as never,
      testContext({ service: slug, tier: 'flat' }),
    )) as Record<string, unknown>
  }
  expect(await run('percentage-calc', { op: 'percent-of', from: 15, to: 200 })).toMatchObject({
    op: 'percent_of',
    result: 30,
  })
  expect(await run('percentage-calc', { op: 'tip', from: 50, to: 20 })).toMatchObject({ tip: 10, total: 60 })
  // Python: calendar.Calendar(6).monthdayscalendar(2024, 2)[0] == [0, 0, 0, 0, 1, 2, 3]
  expect(
    ((await run('calendar-month', { year: 2024, month: 2, first_weekday: 'Sunday' })).weeks as unknown[])[0],
  ).toEqual([null, null, null, null, 1, 2, 3])
  // Python: urllib.parse.quote('a b&c', safe='') == 'a%20b%26c'
  expect(await run('base64-hex-codec', { input: 'a b&c', alphabet: 'url' })).toMatchObject({ output: 'a%20b%26c' })
  // Python: base64.b64encode(hashlib.sha256(b'abc').digest())
  expect(await run('hash-digest', { text: 'abc', algo: 'sha256', output: 'base64' })).toMatchObject({
    digest: 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
  })
  // Python: statistics.correlation([1, 2, 3, 4], [2, 4, 6, 8]) == 1.0
  expect((await run('stats-toolkit', { data: [1, 2, 3, 4], y: [2, 4, 6, 8] })).correlation).toBeCloseTo(1, 12)
  expect(await run('sales-tax-vat-calculator', { amount: 100, region: 'Germany' })).toMatchObject({
    region: 'DE',
    tax: 19,
  })
  expect(await run('sales-tax-vat-calculator', { amount: 100, region: 'US-CA' })).toMatchObject({
    region: 'US-CA',
    tax: 7.25,
  })
  expect(await run('apr-apy-converter', { rate: 0.12, direction: 'apr-to-apy', compounds_per_year: 12 })).toMatchObject(
    { direction: 'apr_to_apy' },
  )
  const mock = await run('mock-data-generate', {
    fields: { n: { type: 'integer', min: 3, max: 3 } },
    count: 2,
    seed: 1,
  })
  expect(mock.records).toEqual([{ n: 3 }, { n: 3 }])
})

/** Rows without fields are spec §2.1 ServiceRequest bodies: its fields, and `text` for `code`, are accepted. */
test('rows without fields take the ServiceRequest body, with text accepted for code', () => {
  const all = (
    JSON.parse(readFileSync(join(import.meta.dir, '..', 'data', 'spec-services.json'), 'utf8')) as { services: Row[] }
  ).services.filter((r) => !r.fields?.length)
  expect(all.length).toBeGreaterThan(5)
  for (const r of all) {
    const schema = bySlug.get(r.slug)!.manifest.input
    expect({
      slug: r.slug,
      ...prepareInputReport(schema, { code: 'x = 1', language: 'python', context: 'briefly', tier: 'quick' }),
    }).toMatchObject({ slug: r.slug, ignored: [] })
    expect({ slug: r.slug, ...prepareInputReport(schema, { text: 'x = 1' }) }).toMatchObject({
      slug: r.slug,
      input: { code: 'x = 1' },
      ignored: [],
    })
    expect(prepareInputReport(schema, { code: 'a', text: 'b' })).toMatchObject({
      input: { code: 'a' },
      ignored: ['text'],
    })
  }
})
