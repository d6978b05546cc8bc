/**
 * Prometheus metrics after a real paid run on the dev chain (anvil, Circle's USDC) with the official clients: one
 * `exact` call and three channel vouchers (`batch-settlement`), a refused payment, an unpaid 402. `/metrics` (behind
 * ADMIN_TOKEN) is read back and checked figure by figure against the books (/stats, the ledger, the channel store,
 * the settler's health); a real Prometheus (Debian's package, a child on a free loopback port, temp config and
 * storage) scrapes it and the same figures are queried through its HTTP API; `promtool test rules` evaluates
 * docs/prometheus/alerts.yml against the series of this very scrape (a healthy run fires nothing; the same run with
 * a settler low on gas fires SettlerGasLow for that settler's real labels). Money check at the end: /stats revenue
 * (every scheme) = exact settled (= ledger) + channel charges, and the payee's on-chain delta = the exact part + the
 * channel charges swept at shutdown.
 * Counters are process-wide (other files may have paid before): the paid figures are checked as deltas.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import { payingFetch } from '../support/paying-fetch'
import { hasPrometheus, sample, samples, startPrometheus } from '../support/prometheus'
import { decodeB64Json, type TestServer } from '../support/server'
import { until } from '../support/until'

const PRICE = 4200n // test-echo: $0.0042
const MIN_DEPOSIT = 100_000n
const ADMIN_TOKEN = 'ops-metrics-test-admin-token-0123456789'
const ROOT = `${import.meta.dir}/../..`

let chain: DevChain
let s: TestServer
let payeeBefore: bigint
let stopped = false

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, { entries: withEcho(), env: { CHANNEL_MIN_DEPOSIT_USD: '0.1', ADMIN_TOKEN } })
})
afterAll(async () => {
  if (!stopped) await s?.stop()
  await chain?.stop()
})

const scrape = async () => {
  const res = await s.fetch('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4')
  return res.text()
}
type Pay = (input: string, init?: RequestInit) => Promise<Response>
const echo = (pay: Pay, code: string) =>
  pay(`${s.url}/api/v1/test-echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })
const usdc = (atomic: bigint) => Number(atomic) / 1e6
const EXACT = { service: 'test-echo', scheme: 'exact', network: NETWORK }
const CHANNEL = { service: 'test-echo', scheme: 'batch-settlement', network: NETWORK }

let exposition = ''

test('/metrics needs the console token: none or a wrong one is 401 in the error shape', async () => {
  const none = await s.fetch('/metrics')
  expect(none.status).toBe(401)
  expect((await none.json()).error.code).toBe('UNAUTHORIZED')
  const wrong = await s.fetch('/metrics', { headers: { authorization: 'Bearer not-the-token-at-all-000000000' } })
  expect(wrong.status).toBe(401)
  expect(wrong.headers.get('www-authenticate')).toContain('Bearer')
})

test('a paid run shows in /metrics figure by figure, equal to the books', async () => {
  const before = samples(await scrape())
  // one unpaid 402, one refused payment, one exact call, three channel vouchers (the first with the deposit)
  expect((await s.post('/api/v1/test-echo', { code: 'x' })).status).toBe(402)
  const refused = await s.post('/api/v1/test-echo', { code: 'x' }, { 'payment-signature': btoa('{"x402Version":2}') })
  expect(refused.status).toBe(402)
  const reason = decodeB64Json(refused.headers.get('payment-required')).error
  expect((await echo(payingFetch(chain.payer.privateKey as Hex), 'exact')).status).toBe(200)
  const payer = await channelPayer(chain, 1_000_000n)
  const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  for (const code of ['one', 'two', 'three']) expect((await echo(pay, code)).status).toBe(200)

  exposition = await scrape()
  const after = samples(exposition)
  const delta = (name: string, labels: Record<string, string> = {}) =>
    sample(after, name, labels) - sample(before, name, labels)

  // paid calls and revenue by service, scheme, network
  expect(delta('x402_paid_calls_total', EXACT)).toBe(1)
  expect(delta('x402_paid_calls_total', CHANNEL)).toBe(3)
  expect(delta('x402_revenue_usdc_total', EXACT)).toBeCloseTo(usdc(PRICE), 9)
  expect(delta('x402_revenue_usdc_total', CHANNEL)).toBeCloseTo(usdc(3n * PRICE), 9)
  expect(delta('x402_settlements_total', { scheme: 'exact', network: NETWORK, outcome: 'settled' })).toBe(1)
  expect(delta('x402_settle_duration_seconds_count', { scheme: 'exact', network: NETWORK })).toBe(1)
  expect(delta('x402_settle_duration_seconds_count', { scheme: 'batch-settlement', network: NETWORK })).toBe(3)
  // refusals by the reason the 402 gave
  expect(reason).toBe('invalid_payload')
  expect(delta('x402_payment_refusals_total', { reason })).toBe(1)
  // HTTP answers: 402s (the unpaid one, the refusal, and the clients' first tries) and the 200s
  expect(delta('x402_http_responses_total', { route: 'api', status: '200' })).toBe(4)
  expect(delta('x402_http_responses_total', { route: 'api', status: '402' })).toBeGreaterThanOrEqual(3)

  // database figures, equal to the books
  const stats = (await (await s.fetch('/stats')).json()) as any
  const labels = { network: NETWORK, source: 'database' }
  // revenue: the exact part (the ledger, /stats schemes.exact), the channel part, and the total of every scheme
  const exactRevenue = BigInt(stats.schemes.exact.revenue_atomic)
  const channelRevenue = BigInt(stats.schemes['batch-settlement'].revenue_atomic)
  expect(exactRevenue).toBe(await s.booted.storage.ledger.settledTotal())
  expect(channelRevenue).toBe((await s.booted.storage.channels.totals()).earned)
  expect(BigInt(stats.totals.revenue_atomic)).toBe(exactRevenue + channelRevenue)
  expect(sample(after, 'x402_db_exact_revenue_usdc', labels)).toBeCloseTo(usdc(exactRevenue), 9)
  expect(sample(after, 'x402_db_channel_earned_usdc', labels)).toBeCloseTo(usdc(channelRevenue), 9)
  expect(sample(after, 'x402_db_revenue_usdc', labels)).toBeCloseTo(usdc(BigInt(stats.totals.revenue_atomic)), 9)
  expect(sample(after, 'x402_settlements_unfinished', labels)).toBe(0)
  expect(sample(after, 'x402_settlement_oldest_unfinished_seconds', labels)).toBe(0)
  expect(sample(after, 'x402_db_settlement_gas_eth_24h', labels)).toBeGreaterThan(0)
  // channels: nothing claimed yet, so all three charges are exposure; the deposit is escrow
  expect(sample(after, 'x402_db_channel_earned_usdc', labels)).toBeCloseTo(usdc(3n * PRICE), 9)
  expect(sample(after, 'x402_channel_unclaimed_usdc', labels)).toBeCloseTo(usdc(3n * PRICE), 9)
  expect(sample(after, 'x402_channel_claim_backlog', labels)).toBe(1)
  expect(sample(after, 'x402_channel_oldest_unclaimed_seconds', labels)).toBeGreaterThanOrEqual(0)
  expect(sample(after, 'x402_channel_escrow_usdc', labels)).toBeCloseTo(usdc(MIN_DEPOSIT), 9)
  // settler gas per network, equal to the backend's own health
  const settlers = (await (await s.fetch('/health')).json()).facilitator.settlers as Array<{
    address: string
    balance_wei: string
    settlements_left: number
  }>
  expect(settlers.length).toBeGreaterThan(0)
  for (const st of settlers) {
    const l = { network: NETWORK, address: st.address }
    expect(sample(after, 'x402_settler_balance_eth', l)).toBeCloseTo(Number(st.balance_wei) / 1e18, 6)
    expect(sample(after, 'x402_settler_settlements_left', l)).toBeGreaterThan(0)
  }
  expect(sample(after, 'x402_facilitator_up', { network: NETWORK })).toBe(1)
  expect(sample(after, 'x402_worker_pool_queue')).toBe(0)
  expect(sample(after, 'x402_inline_services_demoted')).toBe(0)
  expect(sample(after, 'x402_scrape_errors', { source: 'database' })).toBe(0)
  expect(sample(after, 'x402_scrape_errors', { source: 'channels' })).toBe(0)
})

test.skipIf(!hasPrometheus())(
  'a real Prometheus scrapes /metrics and its HTTP API answers the same figures',
  async () => {
    const prom = await startPrometheus({ target: new URL(s.url).host, bearer: ADMIN_TOKEN })
    try {
      const first = async (q: string) => Number((await prom.query(q))[0]?.value[1] ?? Number.NaN)
      await until(async () => (await prom.query('x402_up')).length === 1, 60_000, 'first scrape')
      const [target] = await prom.targets()
      expect(target.health).toBe('up')
      // no paid call since the last read: the counters Prometheus holds equal ours
      const now = samples(await scrape())
      const q = (name: string, l: Record<string, string>) =>
        `${name}{${Object.entries(l)
          .map(([k, v]) => `${k}="${v}"`)
          .join(',')}}`
      await until(
        async () =>
          (await first(q('x402_paid_calls_total', CHANNEL))) === sample(now, 'x402_paid_calls_total', CHANNEL),
        30_000,
        'the paid calls scraped',
      )
      expect(await first(q('x402_paid_calls_total', EXACT))).toBe(sample(now, 'x402_paid_calls_total', EXACT))
      expect(await first(`sum(x402_revenue_usdc_total{service="test-echo"})`)).toBeCloseTo(
        sample(now, 'x402_revenue_usdc_total', EXACT) + sample(now, 'x402_revenue_usdc_total', CHANNEL),
        9,
      )
      const db = { network: NETWORK, source: 'database' }
      expect(await first(q('x402_channel_unclaimed_usdc', db))).toBeCloseTo(usdc(3n * PRICE), 9)
      expect(await first(`max by (network) (x402_db_exact_revenue_usdc)`)).toBeCloseTo(
        sample(now, 'x402_db_exact_revenue_usdc', db),
        9,
      )
      expect(await first(`max by (network) (x402_db_revenue_usdc)`)).toBeCloseTo(
        sample(now, 'x402_db_exact_revenue_usdc', db) + sample(now, 'x402_db_channel_earned_usdc', db),
        9,
      )
      expect(await first(`min(x402_settler_settlements_left)`)).toBeGreaterThan(0)
      expect(await first(`x402_settle_duration_seconds_count{scheme="exact"}`)).toBe(
        sample(now, 'x402_settle_duration_seconds_count', { scheme: 'exact', network: NETWORK }),
      )
      // every query of the dashboard in docs/operations.md is valid PromQL (Prometheus answers it)
      const doc = readFileSync(`${ROOT}/docs/operations.md`, 'utf8')
      const queries = doc
        .split('```promql')[1]!
        .split('```')[0]!
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('#'))
      expect(queries.length).toBeGreaterThan(20)
      for (const query of queries)
        expect({ query, ok: Array.isArray(await prom.query(query)) }).toEqual({ query, ok: true })
      expect((await prom.query('max by (network) (x402_channel_unclaimed_usdc)')).length).toBe(1)
    } finally {
      await prom.stop()
    }
  },
)

/** A promtool test file holding `series` (constant for 20 minutes) and the expected alerts at 10 m. */
function realRunTest(series: Map<string, number>, expectations: Array<{ alert: string; exp: unknown[] }>): string {
  const input = [...series].map(([key, v]) => ({ series: key.replace('{}', ''), values: `${v}x20` }))
  return JSON.stringify({
    rule_files: ['alerts.yml'],
    evaluation_interval: '1m',
    tests: [
      {
        interval: '1m',
        input_series: input,
        alert_rule_test: expectations.map((e) => ({ eval_time: '10m', alertname: e.alert, exp_alerts: e.exp })),
      },
    ],
  })
}

test.skipIf(!hasPrometheus())(
  'promtool: the rules are valid, their unit tests pass, and they judge this run',
  async () => {
    const check = Bun.spawnSync(['promtool', 'check', 'rules', `${ROOT}/docs/prometheus/alerts.yml`])
    expect(check.stdout.toString() + check.stderr.toString()).toContain('SUCCESS')
    expect(check.exitCode).toBe(0)
    const unit = Bun.spawnSync(['promtool', 'test', 'rules', 'alerts.test.yml'], { cwd: `${ROOT}/docs/prometheus` })
    expect(unit.stdout.toString() + unit.stderr.toString()).toContain('SUCCESS')
    expect(unit.exitCode).toBe(0)

    // The gauges of this run's scrape (counters are constant here, so rates are 0: the rate rules stay silent).
    const real = samples(exposition)
    const dir = mkdtempSync(join(tmpdir(), 'x402-promtool-'))
    try {
      copyFileSync(`${ROOT}/docs/prometheus/alerts.yml`, join(dir, 'alerts.yml'))
      const silent = [
        'SettlerGasLow',
        'SettlerGasCritical',
        'FacilitatorDown',
        'SettlementsPendingTooLong',
        'ChannelClaimBacklog',
        'ChannelExposureHigh',
        'ModelProviderFailing',
        'PaymentRefusalSpike',
        'HighErrorRate',
        'WorkerPoolQueueing',
        'CanaryFailing',
        'MetricsSourceUnreadable',
      ].map((alert) => ({ alert, exp: [] }))
      writeFileSync(join(dir, 'healthy.yml'), realRunTest(real, silent))
      const healthy = Bun.spawnSync(['promtool', 'test', 'rules', 'healthy.yml'], { cwd: dir })
      expect(healthy.stdout.toString() + healthy.stderr.toString()).toContain('SUCCESS')

      // the same run with one real settler down to 5 settlements of gas
      const low = new Map(real)
      const key = [...low.keys()].find((k) => k.startsWith('x402_settler_settlements_left{'))!
      low.set(key, 5)
      const address = key.match(/address="([^"]+)"/)![1]
      const labels = { severity: 'warning', network: NETWORK, address }
      writeFileSync(
        join(dir, 'low.yml'),
        realRunTest(low, [
          {
            alert: 'SettlerGasLow',
            exp: [
              {
                exp_labels: labels,
                exp_annotations: {
                  summary: `Settler ${address} on ${NETWORK} can pay gas for 5 more settlements`,
                  description: 'Top up this settler key with ETH. At 0 every paid call on the network answers 503.',
                },
              },
            ],
          },
          {
            alert: 'SettlerGasCritical',
            exp: [
              {
                exp_labels: { ...labels, severity: 'critical' },
                exp_annotations: {
                  summary: `Settler ${address} on ${NETWORK} is almost out of gas (5 settlements left)`,
                },
              },
            ],
          },
        ]),
      )
      const fired = Bun.spawnSync(['promtool', 'test', 'rules', 'low.yml'], { cwd: dir })
      expect(fired.stdout.toString() + fired.stderr.toString()).toContain('SUCCESS')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
)

test('money check: /stats revenue = exact (= ledger) + channel charges; payee delta = exact + the charges swept', async () => {
  await s.booted.channels!.stop()
  const totals = await s.booted.storage.channels.totals()
  expect(totals.swept).toBe(totals.earned)
  stopped = true
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally.exact).toBe(PRICE)
  expect(tally.channels).toBe(totals.earned)
  expect(tally.stats).toBe(tally.exact + tally.channels)
  expect(tally.ledger).toBe(tally.stats)
  expect(tally.delta).toBe(tally.exact + totals.swept)
  expect(tally.unswept + tally.unclaimed).toBe(0n)
})

test('METRICS_PORT: /metrics without a token on its own listener, and none on the main port', async () => {
  const other = await startServerOnChain(chain, { env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } })
  try {
    const port = other.booted.metricsPort!
    expect(port).toBeGreaterThan(0)
    const res = await fetch(`http://127.0.0.1:${port}/metrics`)
    expect(res.status).toBe(200)
    expect(samples(await res.text()).get('x402_up{}')).toBe(1)
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404)
    expect((await other.fetch('/metrics')).status).toBe(404)
  } finally {
    await other.stop()
  }
})
