/**
 * The paid canary (`npm run canary`, scripts/canary.ts) against a server of the test suite on the dev chain (anvil,
 * Circle's USDC), as a child process with the official clients: three cheap services paid with `exact`, then through
 * a channel (one deposit, vouchers, the cooperative refund). Its JSON report says every result, receipt and the books
 * matched; the server, configured with the canary's address (CANARY_PAYER), publishes the runs at GET /reliability,
 * in the console and in /metrics. A canary whose payer has no funds fails, and /reliability names the failure.
 * Money check at the end: /stats revenue (every scheme) = exact settled (= ledger) + channel charges, and the payee's
 * on-chain delta = the exact part + the channel charges swept.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { fundedPayer, startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import type { TestServer } from '../support/server'

const ROOT = `${import.meta.dir}/../..`
const ADMIN_TOKEN = 'ops-canary-test-admin-token-0123456789'
let chain: DevChain
let s: TestServer
let dir: string
let payeeBefore: bigint
let canary: Awaited<ReturnType<typeof fundedPayer>>
let broke: Awaited<ReturnType<typeof fundedPayer>>
let stopped = false

beforeAll(async () => {
  chain = await startDevChain()
  dir = mkdtempSync(join(tmpdir(), 'x402-canary-'))
  canary = await fundedPayer(chain, 1_000_000n) // USDC only: every transaction is the server's
  broke = await fundedPayer(chain, 0n)
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, {
    env: { CHANNEL_MIN_DEPOSIT_USD: '0.1', CANARY_PAYER: `${canary.address},${broke.address}`, ADMIN_TOKEN },
  })
})
afterAll(async () => {
  if (!stopped) await s?.stop()
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function runCanary(key: string, out: string) {
  const p = Bun.spawn([process.execPath, 'scripts/canary.ts', '--url', s.url, '--rpc', chain.rpcUrl, '--out', out], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, CANARY_KEY: key },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ])
  return { code, stdout, stderr, report: JSON.parse(readFileSync(out, 'utf8')) }
}

test('the canary pays exact and a channel, checks results, receipts and the books; /reliability publishes the run', async () => {
  const run = await runCanary(canary.key, join(dir, 'ok.json'))
  expect({ code: run.code, problems: run.report.problems }).toEqual({ code: 0, problems: [] })
  expect(run.stdout).toContain('canary OK: 6/6 calls, books match')
  const { report } = run
  expect(report).toMatchObject({ ok: true, success_rate: 1, payer: canary.address, network: 'eip155:8453' })
  expect(report.calls.map((c: any) => `${c.scheme} ${c.service}`)).toEqual([
    'exact hash-digest',
    'exact roman-numeral',
    'exact slugify',
    'batch-settlement hash-digest',
    'batch-settlement roman-numeral',
    'batch-settlement slugify',
  ])
  for (const c of report.calls) expect(c).toMatchObject({ ok: true, status: 200, receipt_verified: true })
  // the books: each scheme's part of /stats moved by exactly what the receipts say (nobody else pays here), the
  // total by both; the payer by exact + channel
  const b = report.books
  expect(BigInt(b.exact_charged_atomic)).toBeGreaterThan(0n)
  expect(BigInt(b.channel_charged_atomic)).toBeGreaterThan(0n)
  expect(b.exact_revenue_delta_atomic).toBe(b.exact_charged_atomic)
  expect(b.channel_revenue_delta_atomic).toBe(b.channel_charged_atomic)
  expect(BigInt(b.revenue_delta_atomic)).toBe(BigInt(b.exact_charged_atomic) + BigInt(b.channel_charged_atomic))
  expect(BigInt(b.refunded_atomic)).toBe(BigInt(b.deposited_atomic) - BigInt(b.channel_charged_atomic))
  expect(BigInt(b.payer_delta_atomic)).toBe(BigInt(b.exact_charged_atomic) + BigInt(b.channel_charged_atomic))
  expect(b.ok).toBe(true)
  expect(run.stderr).not.toContain(canary.key.slice(2))

  const rel = (await (await s.fetch('/reliability')).json()) as any
  expect(rel).toMatchObject({ calls: 6, ok: 6, success_rate: 1, last_failure: null })
  expect(rel.schemes.exact).toMatchObject({ calls: 3, ok: 3, success_rate: 1 })
  expect(rel.schemes['batch-settlement']).toMatchObject({ calls: 3, ok: 3, success_rate: 1 })
  expect(rel.schemes.exact.latency_ms.p50).toBeGreaterThan(0)
  expect(rel.recent).toHaveLength(6)
  // the console shows the same figures
  const console = (await (
    await s.fetch('/admin/api/overview', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).json()) as any
  expect(console.reliability).toMatchObject({ calls: 6, success_rate: 1, schemes: rel.schemes })
  // and /metrics counts the canary's calls by scheme and outcome
  const metrics = await (await s.fetch('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text()
  expect(metrics).toMatch(/^x402_canary_calls_total\{scheme="batch-settlement",outcome="settled"\} \d+$/m)
})

test('a canary that cannot pay fails with its report, and /reliability names the last failure', async () => {
  const run = await runCanary(broke.key, join(dir, 'broke.json'))
  expect(run.code).toBe(1)
  expect(run.report.ok).toBe(false)
  expect(run.report.calls.every((c: any) => !c.ok)).toBe(true)
  const rel = (await (await s.fetch('/reliability')).json()) as any
  expect(rel.calls).toBeGreaterThan(6)
  expect(rel.success_rate).toBeLessThan(1)
  expect(rel.last_failure).toMatchObject({ outcome: 'refused', reason: expect.any(String) })
})

test('money check: /stats revenue = exact (= ledger) + channel charges; payee delta = exact + the charges swept', async () => {
  await s.booted.channels!.stop()
  const totals = await s.booted.storage.channels.totals()
  expect(totals.swept).toBe(totals.earned)
  stopped = true
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally.exact).toBeGreaterThan(0n)
  expect(tally.channels).toBe(totals.earned)
  expect(tally.stats).toBe(tally.exact + tally.channels)
  expect(tally.ledger).toBe(tally.stats)
  expect(tally.delta).toBe(tally.exact + totals.swept)
  expect(tally.unswept + tally.unclaimed).toBe(0n)
})
