/**
 * The measured target of issue #27 item 4: an agent that knows only /llms.txt calls 20 services with the field names
 * a person would guess (`amount`/`rate`/`years`, `old`/`new`, `type`, `format`, `from_unit`, ...), over real HTTP,
 * paying with the official client on the dev chain. Each call gets a useful answer (checked against a known value) or
 * a 422 whose details name the field to fix, a field /llms.txt lists for that service. A 422 is never charged: the
 * payee's on-chain delta is exactly the price of the answered calls. The figure is in docs/agents.md.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { usdToAtomic } from '../../runtime/catalog/amount'
import type { TestServer } from '../support/server'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { payingFetch } from '../support/paying-fetch'

type Out = Record<string, any>
interface Case {
  slug: string
  /** The body as a person would guess it. */
  body: Record<string, unknown>
  /** A useful answer: checks on the 200 body (known values from an independent source). */
  answer?: (out: Out) => void
  /** Or a 422 naming this field (a JSON pointer such as "/apr")... */
  fix?: string
  /** ...whose message for that field says this. */
  says?: string
}

const CASES: Case[] = [
  {
    // 200,000 at 6 % over 30 years: 1,199.10 a month (any mortgage table; P·i/(1−(1+i)^−360), i = 0.005).
    slug: 'loan-amortization-schedule',
    body: { amount: 200000, rate: 0.06, years: 30 },
    answer: (o) => expect(o.monthly_payment).toBe(1199.1),
  },
  // A rate written in percent: the 422 says to send 0.06 or rate_unit "percent".
  {
    slug: 'loan-amortization-schedule',
    body: { amount: 200000, rate: 6, years: 30 },
    fix: '/apr',
    says: 'send 0.06 or set rate_unit: "percent"',
  },
  {
    // Python: round(1000 * 1.05 ** 10, 2) == 1628.89
    slug: 'compound-interest-projection',
    body: { principal: 1000, rate: 0.05, years: 10, compounds_per_year: 1 },
    answer: (o) => expect(o.final_balance).toBe(1628.89),
  },
  {
    // 5 km = 5000 / 1609.344 mi
    slug: 'unit-convert',
    body: { amount: 5, from_unit: 'km', to_unit: 'mi' },
    answer: (o) => expect(o.result).toBeCloseTo(5000 / 1609.344, 12),
  },
  {
    slug: 'unit-convert',
    body: { value: 10, from: 'kg', to: 'meter' },
    fix: '/to',
    says: 'cannot convert kg to meter',
  },
  {
    slug: 'text-diff',
    body: { old: 'a\nb\n', new: 'a\nc\n' },
    answer: (o) =>
      expect([o.added, o.removed, o.unified_diff]).toEqual([1, 1, '--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n']),
  },
  {
    // RFC 6902: replacing /a
    slug: 'json-diff',
    body: { old: { a: 1 }, new: { a: 2 } },
    answer: (o) => expect(o.patch).toEqual([{ op: 'replace', path: '/a', value: 2 }]),
  },
  {
    slug: 'percentage-calc',
    body: { type: 'what percent', part: 30, whole: 120 },
    answer: (o) => expect([o.result, o.part, o.whole]).toEqual([25, 30, 120]),
  },
  {
    slug: 'percentage-calc',
    body: { type: 'percent change', old: 80, new: 100 },
    answer: (o) => expect(o.result).toBe(25),
  },
  {
    // Python: json.dumps(json.loads(s), separators=(',', ':'))
    slug: 'json-format',
    body: { json: '{"a": [1, 2]}', indent: 0 },
    answer: (o) => expect(o.formatted).toBe('{"a":[1,2]}'),
  },
  {
    // round((44/4 + 9*4/3) / 2) == 12
    slug: 'llm-token-estimate',
    body: { text: 'The quick brown fox jumps over the lazy dog.' },
    answer: (o) => expect(o.tokens).toBe(12),
  },
  {
    slug: 'data-format-convert',
    body: { input: 'a,b\n1,2\n', from: 'csv', format: 'json' },
    answer: (o) => expect(JSON.parse(o.output)).toEqual([{ a: '1', b: '2' }]),
  },
  {
    // RFC 4648 §10 style: base64("hello") == "aGVsbG8="
    slug: 'base64-hex-codec',
    body: { type: 'encode', text: 'hello' },
    answer: (o) => expect(o.output).toBe('aGVsbG8='),
  },
  {
    // FIPS 180-2 test vector: SHA-256("abc")
    slug: 'hash-digest',
    body: { text: 'abc', algorithm: 'sha256' },
    answer: (o) => expect(o.digest).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'),
  },
  {
    slug: 'eth-unit-convert',
    body: { amount: '1', from_unit: 'ether', to_unit: 'gwei' },
    answer: (o) => expect(o.result).toBe('1000000000'),
  },
  {
    slug: 'eth-unit-converter',
    body: { value: '1.5', from: 'gwei', to: 'wei' },
    answer: (o) => expect(o.result).toBe('1500000000'),
  },
  {
    // Python: (date(2024, 3, 1) - date(2024, 1, 1)).days == 60 (a leap year)
    slug: 'date-diff',
    body: { from: '2024-01-01', to: '2024-03-01' },
    answer: (o) => expect(o.days).toBe(60),
  },
  {
    slug: 'case-convert',
    body: { text: 'hello world', format: 'snake' },
    answer: (o) => expect(o.result).toBe('hello_world'),
  },
  {
    // Python: statistics.mean == 5, statistics.pstdev == 2.0
    slug: 'stats-toolkit',
    body: { numbers: [2, 4, 4, 4, 5, 5, 7, 9] },
    answer: (o) => expect([o.mean, o.stdev_population]).toEqual([5, 2]),
  },
  // `apr` is not a field of the converter (it converts either way): the 422 names `rate`.
  { slug: 'apr-apy-converter', body: { apr: 0.05 }, fix: '/rate', says: 'you sent "apr"; did you mean rate?' },
]

let chain: DevChain
let s: TestServer
let payeeBefore = 0n

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain)
})
afterAll(async () => {
  await chain?.stop()
})

/** The lines of one service in /llms.txt, and the field names (and aliases) they list. */
function entry(llms: string, slug: string): { fields: Set<string>; accepted: Set<string> } {
  const lines = llms.split('\n')
  const at = lines.findIndex((l) => l.includes(`/api/v1/${slug})`))
  expect(at).toBeGreaterThan(-1)
  const block: string[] = []
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith('  - ')) break
    block.push(l)
  }
  const names = (prefix: string, re: RegExp) =>
    new Set([...(block.find((l) => l.startsWith(prefix)) ?? '').matchAll(re)].map((m) => m[1]))
  const fields = names('  - Fields: ', /`([^`]+)` \(/g)
  const aliases = names('  - Also accepted: ', /`([^`]+)`→/g)
  return { fields, accepted: new Set([...fields, ...aliases]) }
}

test('20 services called with guessed field names: a useful answer or a 422 naming a listed field, 422s never charged', async () => {
  expect(CASES.length).toBe(20)
  expect(new Set(CASES.map((c) => c.slug)).size).toBeGreaterThanOrEqual(17)
  const llms = await (await fetch(`${s.url}/llms.txt`)).text()
  const prices = new Map(
    (((await (await fetch(`${s.url}/services`)).json()) as Out).services as Out[])
      .filter((x) => x.pricing.flat)
      .map((x) => [x.slug, BigInt(usdToAtomic(x.pricing.flat.price_usd))]),
  )
  const payer = await fundedPayer(chain, 1_000_000n)
  const pay = payingFetch(payer.key as Hex)
  let charged = 0n
  const results: string[] = []
  for (const c of CASES) {
    const label = `${c.slug} ${JSON.stringify(c.body)}`
    const { fields, accepted } = entry(llms, c.slug)
    // The answered guesses are all documented in /llms.txt, as a field or as an accepted alias.
    if (c.answer)
      expect({ label, undocumented: Object.keys(c.body).filter((k) => !accepted.has(k)) }).toEqual({
        label,
        undocumented: [],
      })
    const r = await pay(`${s.url}/api/v1/${c.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(c.body),
    })
    const out = (await r.json()) as Out
    if (c.answer) {
      expect({ label, status: r.status, ignored: r.headers.get('x-ignored-fields') }).toEqual({
        label,
        status: 200,
        ignored: null,
      })
      c.answer(out)
      charged += prices.get(c.slug)!
      results.push(`${c.slug}: 200`)
    } else {
      expect({ label, status: r.status, code: out.error?.code }).toEqual({ label, status: 422, code: 'INVALID_INPUT' })
      const details = out.error.details as Array<{ path: string; message: string }>
      expect({ label, paths: details.map((d) => d.path) }).toEqual({ label, paths: expect.arrayContaining([c.fix]) })
      expect(details.find((d) => d.path === c.fix)!.message).toContain(c.says!)
      expect(fields.has(c.fix!.slice(1))).toBe(true)
      expect(r.headers.get('payment-response')).toBeNull()
      results.push(`${c.slug}: 422 ${c.fix}`)
    }
  }
  expect(results.length).toBe(20)
  const { delta, stats, ledger } = await stopAndTally(chain, [s], payeeBefore)
  expect(delta).toBe(charged)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
}, 120_000)
