/**
 * The operator console in headless Chromium against a real local Base replica (anvil + Circle's USDC):
 * refused without the token, then after sign-in it shows payments made in this test (paid with @x402/fetch),
 * a late-confirmed settlement that 'Reconcile now' settles, an expired one that it fails, the paid failure by error
 * code, and it works by keyboard and on a phone. Money adds up afterwards: payee delta = ledger = /stats revenue.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createPublicClient, createWalletClient, getAddress, http, parseSignature, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, usdcBalance } from '../../runtime/chain/usdc'
import { EIP3009_ABI } from '../../runtime/pay/eip3009-abi'
import { launchChromium } from '../support/browser'
import { decodeB64Json, post, type TestServer, requirementsAt } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { withEcho } from '../support/extra-service'
import { signPayment } from '../support/pay'
import { reservationOf } from '../support/reservation'
import { payingFetch } from '../support/paying-fetch'
import { sqliteOf } from '../../runtime/db/open'

const ART = 'test-artifacts/admin'
const TOKEN = 'console-test-token-abcdefghijklmnop'
let chain: DevChain
let s: TestServer
let browser: Browser
let ctx: BrowserContext
let page: Page
let payeeStart = 0n
let paidTx = ''
let lateTx = ''
const pageErrors: string[] = []

const jsonInit = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/** A settlement whose transaction was mined but whose receipt the server never saw: the ledger row stays pending. */
async function latePending(): Promise<string> {
  const requirements = await requirementsAt(s.url + '/api/v1/slugify')
  const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements })
  const raw = JSON.parse(Buffer.from(header, 'base64').toString())
  const a = raw.payload.authorization
  const { r, s: sv, v, yParity } = parseSignature(raw.payload.signature)
  const admin = createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account: privateKeyToAccount(chain.admin.privateKey as Hex),
  })
  const tx = await admin.writeContract({
    address: getAddress(requirements.asset),
    abi: EIP3009_ABI,
    functionName: 'transferWithAuthorization',
    args: [
      a.from,
      a.to,
      BigInt(a.value),
      BigInt(a.validAfter),
      BigInt(a.validBefore),
      a.nonce,
      Number(v ?? BigInt(27 + yParity!)),
      r,
      sv,
    ] as never,
  })
  await createPublicClient({ chain: localBase(chain.rpcUrl), transport: http(chain.rpcUrl) }).waitForTransactionReceipt(
    { hash: tx },
  )
  const ledger = sqliteOf(s.booted).ledger
  const id = ledger.reserve(reservationOf(raw, requirements, { slug: 'slugify', requestId: 'req_late' }))!
  ledger.transition(id, 'verified')
  ledger.transition(id, 'settling', { tx })
  ledger.transition(id, 'pending', { reason: 'settlement_pending' })
  return tx
}

/** An authorization that was never broadcast and has expired: reconciliation must fail it (nothing was charged). */
async function expiredPending(): Promise<void> {
  const requirements = await requirementsAt(s.url + '/api/v1/slugify')
  const header = await signPayment({
    key: chain.payer.privateKey as Hex,
    requirements,
    validBefore: Math.floor(Date.now() / 1000) - 5,
  })
  const raw = JSON.parse(Buffer.from(header, 'base64').toString())
  const ledger = sqliteOf(s.booted).ledger
  const id = ledger.reserve(reservationOf(raw, requirements, { slug: 'slugify', requestId: 'req_expired' }))!
  await ledger.transition(id, 'settling')
  ledger.transition(id, 'pending', { reason: 'settlement_pending' })
}

beforeAll(async () => {
  mkdirSync(ART, { recursive: true })
  chain = await startDevChain()
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: { ADMIN_TOKEN: TOKEN, INVALID_PAYMENT_LIMIT: '0', DEMO_SERVICE: 'test-explain' },
  })
  payeeStart = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const pay = payingFetch(chain.payer.privateKey as Hex)
  const ok = await pay(s.url + '/api/v1/slugify', jsonInit({ text: 'Seen by the operator' }))
  expect(ok.status).toBe(200)
  paidTx = decodeB64Json(ok.headers.get('payment-response')).transaction
  const failed = await pay(s.url + '/api/v1/test-echo', jsonInit({ code: 'fail' }))
  expect(failed.status).toBe(422) // the handler failed: released, nothing charged
  await post(s.url + '/api/demo/explain', { code: 'x = 1' })
  lateTx = await latePending()
  await expiredPending()
  browser = await launchChromium()
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  page = await ctx.newPage()
  // the console runs on shared code (/site.css, /ui.js): any script error or CSP refusal shows up here
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  page.on('console', (m) => {
    if (m.type() === 'error' && !/401|Unauthorized/.test(m.text())) pageErrors.push(m.text())
  })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await s?.stop()
  await chain?.stop()
})

async function moneyAddsUp() {
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeStart
  expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(delta)
  const stats = (await (await fetch(s.url + '/stats')).json()) as any
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(delta)
}

describe('operator console', () => {
  test('refuses without the token: a sign-in form, no payment data, JSON 401, wrong token 401', async () => {
    const res = await page.goto(s.url + '/admin')
    expect(res!.headers()['cache-control']).toBe('no-store')
    expect(await page.locator('#signin').count()).toBe(1)
    const text = (await page.textContent('body'))!
    expect(text).not.toContain(paidTx)
    expect(text).not.toContain('slugify')
    const api = await page.evaluate(async () => (await fetch('/admin/api/payments')).status)
    expect(api).toBe(401)
    await page.fill('#token', 'definitely-not-the-admin-token-000')
    await page.press('#token', 'Enter')
    await page.waitForSelector('#signin-error')
    expect(await page.textContent('#signin-error')).toContain('not right')
    expect((await ctx.cookies()).length).toBe(0)
  }, 30_000)

  test('after sign-in (by keyboard) it shows the payment made in this test, with its tx hash', async () => {
    await page.goto(s.url + '/admin')
    await page.keyboard.press('Tab') // the token field has autofocus; Tab goes to the button and back
    await page.focus('#token')
    await page.keyboard.type(TOKEN)
    await page.keyboard.press('Enter')
    await page.waitForSelector('body[data-ready="true"]')
    const [cookie] = await ctx.cookies()
    expect(cookie).toMatchObject({ name: 'admin_session', httpOnly: true, sameSite: 'Strict', path: '/admin' })
    expect(cookie.value).not.toContain(TOKEN)
    const row = page
      .locator('#payment-list tr', { hasText: 'slugify' })
      .filter({ has: page.locator(`[title^="${paidTx}"]`) })
    expect(await row.count()).toBe(1)
    expect(await row.textContent()).toContain('settled')
    expect(await row.textContent()).toContain('$0.001')
    expect(await row.locator('a').count()).toBe(0) // dev chain: the local hash, no explorer link
    expect(await page.textContent('#where')).toContain('embedded dev chain')
    // the paid call whose handler failed, by error code
    expect(await page.textContent('#errors-codes')).toContain('INVALID_INPUT')
    expect(await page.textContent('#errors-codes')).toContain('test-echo')
    expect(await page.locator('#errors-by-code tr', { hasText: 'test-echo' }).textContent()).toContain('INVALID_INPUT')
    expect(await page.textContent('#demo')).toContain('1 free call today by 1 client')
    expect(
      await page
        .locator('#chart-money-days rect[data-series="revenue"]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))).reduce((a, b) => a + b, 0)),
    ).toBeCloseTo(0.001, 9)
    expect(await page.textContent('[data-stat="Pending / settling"]')).toBe('2')
    // revenue per protocol (x402 and MPP beside it, docs/payments.md): the x402 payment of this test, no MPP one
    expect(await page.textContent('#money-networks')).toMatch(/by protocol: x402 \S+ in 1 paid calls, MPP \S+ in 0/)
    // dev chain: the margins come with the reason they are negative (gas at the dev chain's fee)
    expect(await page.isVisible('#money-dev-note')).toBe(true)
    expect(await page.textContent('#money-dev-note')).toMatch(/priced at the dev chain's fee \([0-9.e+-]+ gwei per gas/)
    await page.screenshot({ path: `${ART}/console.png`, fullPage: true })
  }, 30_000)

  test('"Reconcile now" settles the late-confirmed payment and fails the expired one; the money adds up', async () => {
    expect(await page.locator('#unsettled tr', { hasText: 'pending' }).count()).toBe(2)
    await page.focus('#reconcile')
    await page.keyboard.press('Enter')
    await page.waitForSelector('#reconcile-out[data-done]', { timeout: 20_000 })
    expect(await page.textContent('#reconcile-out')).toContain('1 settled, 1 failed')
    await page.waitForFunction(() => document.querySelector('[data-stat="Pending / settling"]')?.textContent === '0')
    expect(await page.locator('#unsettled tr', { hasText: 'failed' }).count()).toBe(1)
    const late = page.locator('#payment-list tr').filter({ has: page.locator(`[title^="${lateTx}"]`) })
    expect(await late.textContent()).toContain('settled')
    await moneyAddsUp()
    const api = (await (
      await fetch(s.url + '/admin/api/payments?state=settled', { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as any
    expect(api.payments.map((p: any) => p.tx_hash).sort()).toEqual([paidTx, lateTx].sort())
    expect(JSON.stringify(api)).not.toContain('signature')
  }, 30_000)

  test("a payment's history opens from its id, by keyboard", async () => {
    const id = sqliteOf(s.booted)
      .ledger.byState(['settled'])
      .find((p) => p.tx_hash === paidTx)!.id
    await page.focus(`#payment-list button[data-payment="${id}"]`)
    await page.keyboard.press('Enter')
    await page.waitForSelector('#payment-detail:not([hidden]) table')
    const states = await page.locator('#payment-detail tbody tr td:nth-child(2)').allTextContents()
    expect(states).toEqual(
      sqliteOf(s.booted)
        .ledger.events(id)
        .map((e) => e.state),
    )
    expect(states[0]).toBe('reserved')
    expect(states.at(-1)).toBe('settled')
    expect(await page.textContent('#payment-detail')).toContain(paidTx)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('payment-detail')
  }, 30_000)

  test('filters payments by state and service', async () => {
    await page.selectOption('#f-state', 'released')
    await page.click('#payment-filters button')
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#payment-list tbody tr')].every((r) => r.textContent!.includes('released')),
    )
    expect(await page.textContent('#payment-list')).toContain('handler 422 INVALID_INPUT')
  }, 30_000)

  test('usable on a phone: no sideways scrolling of the page, tables scroll inside their box', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(s.url + '/admin')
    await page.waitForSelector('body[data-ready="true"]')
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to payments')
    await page.screenshot({ path: `${ART}/console-phone.png` })
  }, 30_000)

  test('the page ran without a script error or a CSP refusal (shared stylesheet and helpers load)', async () => {
    expect(await page.evaluate(() => [...document.styleSheets].map((s) => new URL(s.href!).pathname))).toEqual([
      '/site.css',
      '/admin/admin.css',
    ])
    expect(pageErrors).toEqual([])
  })

  test('sign out ends the session: back to the form, and the JSON refuses the old cookie', async () => {
    const [before] = await ctx.cookies()
    await page.click('.signout button')
    await page.waitForSelector('#signin')
    expect(await ctx.cookies()).toEqual([])
    expect(
      (await fetch(s.url + '/admin/api/overview', { headers: { cookie: `admin_session=${before.value}` } })).status,
    ).toBe(401)
  }, 30_000)
})
