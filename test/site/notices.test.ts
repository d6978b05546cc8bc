/**
 * The home page in headless Chromium (issue #27): the dev-chain notice at the top (only on the embedded dev chain),
 * the demo button off with the reason when the demo's model is not configured (no request, no 503), and the try-it
 * answer scrolled into view.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { launchChromium } from '../support/browser'
import { startServer, type TestServer } from '../support/server'
import { UNREACHABLE_CHAIN } from '../support/server-process'

const key = generatePrivateKey()
const payer = { address: privateKeyToAccount(key).address, privateKey: key }
let dev: TestServer
let real: TestServer
let browser: Browser

beforeAll(async () => {
  // The embedded dev chain's app (its demo payer given), and one configured for a real network; neither has a model.
  dev = await startServer({ devPayer: payer })
  real = await startServer({
    env: { RPC_URL: UNREACHABLE_CHAIN.RPC_URL, SETTLER_PRIVATE_KEY: UNREACHABLE_CHAIN.SETTLER_PRIVATE_KEY },
  })
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await dev?.stop()
  await real?.stop()
})

async function open(s: TestServer, path = '/', viewport = { width: 1200, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport })
  await page.goto(s.url + path)
  await page.waitForSelector('body[data-ready="true"]')
  return page
}

test('the dev chain is announced at the top of the page, and only on the dev chain', async () => {
  const page = await open(dev)
  await page.waitForSelector('#dev-notice:not([hidden])')
  const text = await page.textContent('#dev-notice')
  expect(text).toContain('not real money')
  expect(text).toContain(payer.address)
  const box = (await page.locator('#dev-notice').boundingBox())!
  const title = (await page.locator('h1').boundingBox())!
  expect(box.y).toBe(0)
  expect(box.y + box.height).toBeLessThanOrEqual(title.y)
  await page.close()

  const other = await open(real)
  await other.waitForSelector('body[data-chain-checked="true"]')
  expect(await other.isHidden('#dev-notice')).toBe(true)
  await other.close()
}, 60_000)

test('without a model the demo button is off and says why; nothing is sent', async () => {
  const page = await open(dev)
  const demoCalls: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/demo/')) demoCalls.push(r.url())
  })
  await page.waitForSelector('#demo-unavailable:not([hidden])')
  expect(await page.isDisabled('#demo-submit')).toBe(true)
  expect(await page.textContent('#demo-unavailable')).toContain('The demo is off on this server')
  expect(await page.textContent('#demo-unavailable')).toContain('OPENAI_API_KEY')
  await page.click('#demo-submit', { force: true })
  await page.press('#demo-code', 'Control+Enter')
  expect(demoCalls).toEqual([])
  expect(await page.textContent('#demo-out')).toBe('')
  await page.close()
}, 60_000)

test('the try-it answer is scrolled into view, below a long form on a small screen', async () => {
  const page = await open(dev, '/?q=financial-ratios', { width: 390, height: 600 })
  await page.click('article[data-slug="financial-ratios"] button')
  await page.click('#try-form button[type="submit"]')
  await page.waitForSelector('#try-result h3')
  // The answer starts in the top quarter of the dialog's visible area: the decoded challenge and the pay button show,
  // not just a heading at the bottom edge (where clicking the submit button leaves it).
  const where = await page.evaluate(() => {
    const r = document.querySelector('#try-result')!.getBoundingClientRect()
    const d = document.querySelector('#try')!.getBoundingClientRect()
    return { offset: r.top - Math.max(0, d.top), height: Math.min(innerHeight, d.bottom) - Math.max(0, d.top) }
  })
  expect(where.offset).toBeGreaterThanOrEqual(0)
  const visible = where.offset < where.height / 4
  expect(visible).toBe(true)
  await page.close()
}, 60_000)
