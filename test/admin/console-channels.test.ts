/**
 * The operator console's payment channels (docs/channels.md), in headless Chromium against the dev chain: after one
 * `exact` call and two calls paid by a channel (the official client, `@x402/evm/batch-settlement/client`), the page
 * lists the channel (balance, charged, claimed, unclaimed, pending withdrawal) with the figures of
 * GET /admin/api/channels, and the gas per paid call of each scheme over the same 30-day window. Money adds up at the end: payee's delta = exact
 * revenue (/stats = ledger) + what the claim engine swept at shutdown.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import type { Browser, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { launchChromium } from '../support/browser'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import { payingFetch } from '../support/paying-fetch'
import type { TestServer } from '../support/server'

const ART = 'test-artifacts/admin'
const TOKEN = 'console-channels-test-token-0123456789'
const PRICE = 4200n // test-echo
let chain: DevChain
let s: TestServer
let browser: Browser
let page: Page
let payeeBefore = 0n
let stopped = false
const pageErrors: string[] = []

const echo = (pay: typeof fetch, code: string) =>
  pay(`${s.url}/api/v1/test-echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })

beforeAll(async () => {
  mkdirSync(ART, { recursive: true })
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: { ADMIN_TOKEN: TOKEN, CHANNEL_MIN_DEPOSIT_USD: '0.1' },
  })
  expect((await echo(payingFetch(chain.payer.privateKey as Hex) as typeof fetch, 'exact')).status).toBe(200)
  const payer = await channelPayer(chain, 1_000_000n)
  const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  for (const code of ['one', 'two']) expect((await echo(pay as typeof fetch, code)).status).toBe(200)
  browser = await launchChromium()
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  page.on('console', (m) => {
    if (m.type() === 'error' && !/401|Unauthorized/.test(m.text())) pageErrors.push(m.text())
  })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  if (!stopped) await s?.stop()
  await chain?.stop()
})

/** The console's own dollar format of atomic units (admin-site.js `usd`). */
const dollars = (atomic: string) => {
  const n = Number(atomic) / 1e6
  return '$' + (Math.abs(n) < 0.01 && n !== 0 ? n.toFixed(6).replace(/0+$/, '') : n.toFixed(2))
}

test('the console lists the channel and the gas per paid call of each scheme', async () => {
  const api = (await (
    await s.fetch('/admin/api/channels', { headers: { authorization: `Bearer ${TOKEN}` } })
  ).json()) as any
  expect(api).toMatchObject({
    offered: true,
    window_days: 30,
    count: 1,
    figures: { paid_calls: 2, earned_atomic: String(2n * PRICE) },
  })
  const ch = api.channels[0]

  await page.goto(s.url + '/admin')
  await page.fill('#token', TOKEN)
  await page.press('#token', 'Enter')
  await page.waitForSelector('body[data-ready="true"]')

  expect(await page.textContent('#channels-summary')).toContain(
    `Last 30 days (UTC, today included), like the figures above: 1 channel used on ${NETWORK}, 2 paid calls`,
  )
  const row = page.locator('#channels tr').filter({ has: page.locator(`[title="${ch.id}"]`) })
  expect(await row.count()).toBe(1)
  const cells = await row.locator('td').allTextContents()
  expect(cells[1]).toBe(NETWORK)
  expect(cells.slice(3, 8)).toEqual([
    dollars(ch.balance),
    dollars(String(2n * PRICE)),
    dollars(ch.claimed),
    dollars(ch.unclaimed),
    '—', // no withdrawal pending
  ])
  expect(await row.locator(`[title="${ch.payer}"]`).count()).toBe(1)

  // gas per paid call: exact pays one transfer per call, the channel its deposit for both calls
  const gas = await page
    .locator('#gas-per-scheme tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)))
  // both schemes over the same window (the exact money's 30 days)
  expect(gas.map((r) => [r[0], r[1], r[2]])).toEqual([
    ['exact', '30 days', '1'],
    ['batch-settlement', '30 days', '2'],
  ])
  const ethOf = (wei: string) => Number(BigInt(wei)) / 1e18
  expect(Number(gas[1][4])).toBeCloseTo(ethOf(api.figures.gas_wei) / 2, 9)
  for (const r of gas) expect(Number(r[4])).toBeGreaterThan(0)
  await page.screenshot({ path: `${ART}/console-channels.png`, fullPage: true })
  expect(pageErrors).toEqual([])

  // the books count every scheme: the overview's money has the channel charges beside the exact settlement, and the
  // money table shows them on the service's row
  const ov = (await (
    await s.fetch('/admin/api/overview', { headers: { authorization: `Bearer ${TOKEN}` } })
  ).json()) as any
  expect(ov.channel_money).toMatchObject({
    paid_calls: 2,
    revenue_atomic: String(2n * PRICE),
    services: [{ slug: 'test-echo', paid_calls: 2, revenue_atomic: String(2n * PRICE) }],
  })
  expect(ov.errors.per_service).toBeDefined()
  expect(await page.textContent('#money-networks')).toContain(`+ ${dollars(String(2n * PRICE))} in 2 channel charges`)
  const echoRow = await page
    .locator('#money-table tbody tr')
    .filter({ hasText: 'test-echo' })
    .locator('td')
    .allTextContents()
  expect(echoRow.slice(0, 5)).toEqual(['test-echo', '1', dollars(String(PRICE)), '2', dollars(String(2n * PRICE))])
  expect(await page.textContent('#sponsored-payers')).toContain(ch.payer.slice(0, 8))

  // money: the exact call is revenue now, the channel's charges once swept at shutdown
  await s.booted.channels!.stop()
  const totals = await s.booted.storage.channels.totals()
  expect(totals.swept).toBe(2n * PRICE)
  stopped = true
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally.exact).toBe(PRICE)
  expect(tally.stats).toBe(PRICE + totals.earned) // every scheme
  expect(tally.ledger).toBe(tally.stats)
  expect(tally.delta).toBe(tally.stats)
  expect(tally.delta).toBe(tally.exact + totals.swept)
}, 60_000)
