/**
 * Every paid call of the catalog (each service; each tier of a tiered one) with an input that succeeds, and the
 * loopback world that makes it succeed through the real server: the fake model provider (fake-openai.ts), one web
 * site and every live-data upstream, scripted per call from the service's first successful fixture
 * (services/<slug>/fixtures.json: its model replies, web pages and recorded upstream answers). A service with no
 * upstream, model or web page runs its manifest's first example. Shared by the tests where the official clients pay
 * every service both ways (test/pay/official-all-http.test.ts, test/mcp/official-all.test.ts).
 */
import { expect } from 'bun:test'
import type { SchemeNetworkClient, SettleResponse } from '@x402/core/types'
import { decodePaymentResponseHeader, x402Client } from '@x402/fetch'
import { atomicToUsd, usdToAtomic } from '../../runtime/catalog/amount'
import type { DevChain } from '../../runtime/chain/devchain'
import { upstreamEnvName } from '../../runtime/net/upstream-defaults'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import type { TierName } from '../../runtime/sdk'
import { issues } from '../../runtime/input/validate'
import { serve } from '../net/support'
import { entries, upstreams } from './entries'
import { startFakeOpenAI } from './fake-openai'
import { loadFixtures, replaceDeep, toResponse, type Fixture, type ScriptedResponse } from './fixture-run'
import { stopAndTallySchemes } from './on-chain'
import { decodeB64Json, post, type TestServer } from './server'
import { sseReader } from './sse'

export interface CatalogCall {
  entry: RegistryEntry
  slug: string
  tier: TierName
  tiered: boolean
  /** `slug` or `slug?tier=…`, for messages. */
  label: string
  /** The tier's price in atomic units (the 402's amount; the voucher's ceiling). */
  price: bigint
  /** The tier's `max_tokens` (0: a flat-rate service, whose channel charge is its price). */
  maxTokens: number
  /** The fixture that scripts the model, the web site and the upstreams for this call (absent: the example). */
  fixture?: Fixture
}

/** A fixture that succeeds and scripts something the server must reach (a model, a page or an upstream). */
const scripted = (f: Fixture) => !f.expectError && Boolean(f.model?.length || f.web || f.upstream)

/**
 * Every paid call of the catalog: one per service, one per tier of a tiered service. Every service can run in a test
 * (no exclusions): one without a successful scripted fixture, or without an example, throws here.
 */
export function catalogCalls(): CatalogCall[] {
  const calls: CatalogCall[] = []
  for (const entry of entries) {
    const m = entry.manifest
    if (!entry.handler) throw new Error(`${m.slug} is not built`)
    const fixture = m.needs?.some((n) => n !== 'payments') ? loadFixtures(entry.folder).find(scripted) : undefined
    if (m.needs?.some((n) => n !== 'payments') && !fixture) throw new Error(`${m.slug}: no successful scripted fixture`)
    if (!fixture && !m.examples?.length) throw new Error(`${m.slug}: no example`)
    const tiered = m.kind === 'tiered'
    for (const [tier, p] of Object.entries(m.pricing) as [TierName, { price_usd: number; max_tokens: number }][])
      calls.push({
        entry,
        slug: m.slug,
        tier,
        tiered,
        label: tiered ? `${m.slug}?tier=${tier}` : m.slug,
        price: BigInt(usdToAtomic(p.price_usd)),
        maxTokens: p.max_tokens,
        fixture,
      })
  }
  return calls
}

/**
 * What a voucher for `call` is charged (docs/channels.md, "Pay for tokens used"): the price for a flat-rate service;
 * for a tier with `max_tokens`, price × min(tokens_used, max_tokens) / max_tokens rounded up to the atomic unit,
 * never below a tenth of the price (rounded up) nor above the price.
 */
export function expectedCharge(call: CatalogCall, body: unknown): bigint {
  const tokens = (body as { tokens_used?: unknown } | null)?.tokens_used
  if (!(call.maxTokens > 0) || typeof tokens !== 'number') return call.price
  const max = BigInt(call.maxTokens)
  const used = BigInt(Math.min(Math.ceil(tokens), call.maxTokens))
  const share = (call.price * used + max - 1n) / max
  const floor = (call.price + 9n) / 10n
  return share < floor ? floor : share > call.price ? call.price : share
}

/** Problems with a paid answer: not a 200, or not the service's declared output. */
export function answerProblems(call: CatalogCall, status: number | string, body: unknown): string[] {
  if (status !== 200) return [`${call.label}: ${status} ${JSON.stringify(body).slice(0, 200)}`]
  const problems = issues(call.entry.manifest.output, body).map((i) => `${call.label}: output ${i.path} ${i.message}`)
  const tier = (body as { tier?: unknown } | null)?.tier
  if (call.tiered && tier !== call.tier) problems.push(`${call.label}: answered at tier ${tier}`)
  return problems
}

/** Problems with an `exact` settle response: it has the transfer's transaction, and the answer no `charged` field. */
export function exactProblems(call: CatalogCall, body: unknown, response: SettleResponse): string[] {
  const problems: string[] = []
  if (!/^0x[0-9a-f]{64}$/.test(response.transaction))
    problems.push(`${call.label}: exact settled without a transaction`)
  if ((body as { charged?: unknown } | null)?.charged !== undefined)
    problems.push(`${call.label}: an exact answer with a charged field`)
  return problems
}

/**
 * The checks of one channel's successive settle responses (PAYMENT-RESPONSE, a stream's result event, or MCP's
 * `_meta["x402/payment-response"]`): each charge is `expectedCharge` (and a model tier's answer says it in
 * `charged.atomic`), the cumulative amount adds up, and only the first call deposits (a transaction); `charged` is
 * the running sum.
 */
export function channelTally() {
  let charged = 0n
  let calls = 0
  return {
    get charged() {
      return charged
    },
    check(call: CatalogCall, body: unknown, response: SettleResponse): string[] {
      const problems: string[] = []
      const extra = response.extra as { chargedAmount?: string; channelState?: { chargedCumulativeAmount?: string } }
      const amount = BigInt(extra?.chargedAmount ?? -1)
      const want = expectedCharge(call, body)
      if (amount !== want || amount > call.price) problems.push(`${call.label}: charged ${amount}, expected ${want}`)
      const said = (body as { charged?: { atomic?: string } } | null)?.charged?.atomic
      if (said !== (call.maxTokens > 0 ? String(amount) : undefined))
        problems.push(`${call.label}: the answer says it cost ${said}, charged ${amount}`)
      charged += amount
      const cumulative = extra?.channelState?.chargedCumulativeAmount
      if (cumulative !== String(charged)) problems.push(`${call.label}: cumulative ${cumulative}, expected ${charged}`)
      const deposit = /^0x[0-9a-f]{64}$/.test(response.transaction)
      if (deposit !== (calls === 0) || (!deposit && response.transaction !== ''))
        problems.push(`${call.label}: call ${calls + 1} has transaction ${JSON.stringify(response.transaction)}`)
      calls++
      return problems
    },
  }
}

/** The loopback world every call of the catalog reaches through the server, and the server's env that points there. */
export function catalogWorld() {
  const model = startFakeOpenAI()
  let web: Record<string, ScriptedResponse> = {}
  let upstream: Record<string, ScriptedResponse | ScriptedResponse[]> = {}
  const site = serve((_req, url) => {
    const up = url.pathname.match(/^\/_up\/([^/]+)(\/.*)?$/)
    if (up) {
      const q = upstream[up[1]!]
      const r = Array.isArray(q) ? q.shift() : q
      return r ? toResponse(r) : new Response('catalog world: no scripted upstream answer', { status: 599 })
    }
    const page = web[url.pathname]
    return page ? toResponse(page) : new Response('not found', { status: 404 })
  })
  const env: Record<string, string> = {
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'test-key',
    FETCH_ALLOW_HOSTS: site.host,
  }
  for (const name of Object.keys(upstreams)) env[upstreamEnvName(name, 'URL')] = `${site.url}/_up/${name}`
  let expectedModelCalls = 0
  let siteRequests = 0
  /** The services whose page or upstream the site served. */
  const reached = new Set<string>()
  return {
    env,
    /** The loopback model (a test that scripts its own reply, e.g. a paused stream, calls `model.reply` after stage). */
    model,
    /** Scripts the world for `call`; returns its input (the fixture's, `{{web}}` the site, or the example). */
    stage(call: CatalogCall): Record<string, unknown> {
      model.reset()
      siteRequests = site.requests.length
      const f = call.fixture
      if (!f) {
        web = {}
        upstream = {}
        expectedModelCalls = 0
        return structuredClone(call.entry.manifest.examples![0]!.input) as Record<string, unknown>
      }
      model.reply(...structuredClone(f.model ?? []))
      expectedModelCalls = f.modelCalls ?? f.model?.length ?? 0
      web = f.web ?? {}
      upstream = structuredClone(f.upstream ?? {})
      return replaceDeep(f.input, '{{web}}', site.url) as Record<string, unknown>
    },
    /** Problems after a call: the model not asked as the fixture scripts, its page or upstream never read. */
    problems(call: CatalogCall): string[] {
      const problems: string[] = []
      const n = model.requests.length
      if (n !== expectedModelCalls)
        problems.push(`${call.label}: ${n} model request(s), expected ${expectedModelCalls}`)
      const f = call.fixture
      if (site.requests.length > siteRequests) reached.add(call.slug)
      // live-data answers are cached (ctx.upstream's TTL): the upstream is asked at least the first time
      else if ((f?.web || f?.upstream) && !reached.has(call.slug))
        problems.push(`${call.label}: its web page or upstream was never asked`)
      return problems
    },
    close() {
      model.close()
      site.stop()
    },
  }
}

/**
 * The official client paying with `scheme` on Base, its per-payment cap (`spendControls.maxAmountPerPayment`, $1 by
 * default) raised to the highest price of `calls`: with the default, the client refuses the tiers above $1
 * (security-audit pro $2.50, mcp-blueprint standard $1.50 and pro $3.00).
 */
export const officialClient = (scheme: SchemeNetworkClient, calls: CatalogCall[]) =>
  new x402Client().register('eip155:8453', scheme).setSpendControls({
    maxAmountPerPayment: `$${atomicToUsd(calls.reduce((a, c) => (c.price > a ? c.price : a), 0n))}`,
  })

type Pay = (input: string, init?: RequestInit) => Promise<Response>

/** The answer and settle response of a paid call: the JSON body and PAYMENT-RESPONSE, or the stream's result event. */
async function answerOf(
  res: Response,
  stream: boolean,
): Promise<{ status: number | string; body: unknown; response?: SettleResponse }> {
  if (stream && res.status === 200) {
    if (!res.headers.get('content-type')?.startsWith('text/event-stream'))
      return { status: 'not a stream', body: await res.text() }
    const last = (await sseReader(res).rest()).at(-1)
    if (last?.event !== 'result') return { status: `event ${last?.event}`, body: last?.data }
    const { payment, ...body } = last.data
    return { status: 200, body, response: payment }
  }
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  const header = res.headers.get('payment-response')
  return { status: res.status, body, response: header ? decodePaymentResponseHeader(header) : undefined }
}

/**
 * One paid call of `call` at the server (or proxy) `base` through `pay`, an official client (as a stream when
 * `stream`), in `world`: the 402 offers both schemes at the price, then the paid answer. Its problems go to `problems`.
 */
export async function paidHttpCall(
  world: ReturnType<typeof catalogWorld>,
  base: string,
  pay: Pay,
  call: CatalogCall,
  problems: string[],
  stream = false,
): Promise<PaidOutcome> {
  const input = world.stage(call)
  const url = `${base}/api/v1/${call.slug}${call.tiered ? `?tier=${call.tier}` : ''}`
  const offered = decodeB64Json((await post(url, input)).headers.get('payment-required'))?.accepts ?? []
  const terms = offered.map((a: { scheme: string; amount: string }) => `${a.scheme} ${a.amount}`)
  if (terms.join() !== `exact ${call.price},batch-settlement ${call.price}`)
    problems.push(`${call.label}: the 402 offers ${terms.join(', ')}`)
  const res = await pay(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) },
    body: JSON.stringify(input),
  })
  const { status, body, response } = await answerOf(res, stream)
  const bad = [...answerProblems(call, status, body), ...world.problems(call)]
  problems.push(...bad)
  if (!response?.success) problems.push(`${call.label}: no successful settle response`)
  return { ok: !bad.length && Boolean(response?.success), body, response }
}

/** One paid call's outcome: `ok` when it answered and settled with no problem (listed in the caller's `problems`). */
export type PaidOutcome = { ok: boolean; body?: unknown; response?: SettleResponse }

/**
 * Pays each call of `list` in turn with `one`, checks each successful settle response with `check`, and asserts that
 * every call paid with no problem: the count of paid calls is the length of `list`, none skipped.
 */
export async function payEach(
  list: CatalogCall[],
  one: (call: CatalogCall, problems: string[]) => Promise<PaidOutcome>,
  check: (call: CatalogCall, body: unknown, response: SettleResponse) => string[],
): Promise<void> {
  const problems: string[] = []
  let paid = 0
  for (const call of list) {
    const { ok, body, response } = await one(call, problems)
    const bad = response?.success ? check(call, body, response) : []
    problems.push(...bad)
    if (ok && !bad.length) paid++
  }
  expect(problems).toEqual([])
  expect(paid).toBe(list.length)
}

/** What a test file moved: exact payments (atomic), channel charges (atomic), channel-paid calls, channels opened. */
export const movedBooks = () => ({ exact: 0n, charged: 0n, channelCalls: 0, channels: 0 })

/**
 * The end of a file that paid both ways: the claim engine's shutdown claims and sweeps every channel (earned =
 * claimed = swept = the charges, as /stats says, each channel's one deposit `deposit`), then the server stops and
 * the books balance: /stats revenue = the ledger = the exact payments, payee's delta = exact + swept.
 */
export async function closeBooks(
  chain: DevChain,
  s: TestServer,
  moved: ReturnType<typeof movedBooks>,
  payeeBefore: bigint,
  deposit: bigint,
): Promise<void> {
  const store = s.booted.storage.channels
  expect((await store.totals()).earned).toBe(moved.charged)
  await s.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned: moved.charged, claimed: moved.charged, swept: moved.charged })
  const figures = ((await (await fetch(`${s.url}/stats`)).json()) as { channels: Record<string, unknown> }).channels
  expect(figures).toMatchObject({
    channels: moved.channels,
    paid_calls: moved.channelCalls,
    earned_atomic: String(moved.charged),
    claimed_atomic: String(moved.charged),
    swept_atomic: String(moved.charged),
    deposited_atomic: String(BigInt(moved.channels) * deposit),
    txs: { deposit: moved.channels },
  })
  const books = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(books.exact).toBe(moved.exact)
  expect(books.stats).toBe(moved.exact + moved.charged)
  expect(books.ledger).toBe(books.stats)
  expect(books.delta).toBe(books.stats)
}

/** The sum of `xs` (atomic amounts). */
export const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n)
