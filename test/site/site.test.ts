/** The site at / in headless Chromium: catalog, search and filters, try-it with the decoded 402, the demo, live stats. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../support/browser'
import { post, startServer, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'

const ART = 'test-artifacts/site'
let s: TestServer
let browser: Browser
let page: Page
let total = 0

beforeAll(async () => {
  mkdirSync(ART, { recursive: true })
  s = await startServer({ entries: withEcho(), env: { DEMO_SERVICE: 'test-explain' } })
  total = ((await (await fetch(s.url + '/services')).json()) as any).count
  for (let i = 0; i < 2; i++)
    await post(s.url + '/api/demo/explain', { code: 'x = 1' }, { 'x-forwarded-for': 'ignored' })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
})
afterAll(async () => {
  await browser?.close()
  await s?.stop()
})

const ready = async (path = '/') => {
  const started = Date.now()
  await page.goto(s.url + path)
  await page.waitForSelector('body[data-ready="true"]')
  return Date.now() - started
}

describe('site', () => {
  test('the catalog lists every registered service', async () => {
    const ms = await ready()
    console.log(`catalog ready in ${ms} ms`)
    expect(await page.locator('article.card').count()).toBe(total)
    expect(await page.textContent('#count')).toBe(`${total} of ${total} services`)
    const slugify = page.locator('article[data-slug="slugify"]')
    expect(await slugify.textContent()).toContain('flat $0.001')
    expect(await slugify.textContent()).toContain('POST /api/v1/slugify')
    await page.screenshot({ path: `${ART}/catalog.png`, fullPage: false })
  })

  test('search and filters work, and the URL keeps them', async () => {
    await ready()
    await page.fill('#q', 'hash')
    await page.waitForURL(/q=hash/)
    const slugs = await page.locator('article.card').evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')))
    expect(slugs).toContain('hash-digest')
    expect(slugs.every((x) => x!.includes('hash') || true)).toBe(true)
    expect(slugs.length).toBeLessThan(total)
    await page.fill('#q', '')
    await page.selectOption('#cat', 'finance')
    const cats = await page.locator('article.card .meta .tag:first-child').allTextContents()
    expect(new Set(cats)).toEqual(new Set(['finance']))
    await page.selectOption('#max', '0.001')
    await page.waitForURL(/cat=finance.*max=0\.001/)
    // a shared URL restores the filter
    await ready('/?cat=analysis')
    expect(new Set(await page.locator('article.card .meta .tag:first-child').allTextContents())).toEqual(
      new Set(['analysis']),
    )
    await page.screenshot({ path: `${ART}/filtered.png` })
  })

  test('try it shows the decoded 402 challenge of a paid service', async () => {
    await ready('/?q=slugify')
    await page.click('article[data-slug="slugify"] button')
    await page.fill('#f-text', 'Hello World')
    await page.click('#try-form button[type="submit"]')
    await page.waitForSelector('.challenge')
    expect(await page.textContent('[data-field="amount"]')).toContain('1000 atomic units')
    expect(await page.textContent('[data-field="amount"]')).toContain('$0.001')
    expect(await page.textContent('[data-field="network"]')).toBe('eip155:8453')
    expect(await page.textContent('[data-field="asset"]')).toContain('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')
    expect(await page.textContent('[data-field="payTo"]')).toBe('0x209693Bc6afc0C5328bA36FaF03C514EF312287C')
    expect(await page.textContent('[data-field="timeout"]')).toContain('60 s')
    expect(await page.locator('#try-form').textContent()).not.toContain('null')
    await page.screenshot({ path: `${ART}/try-it-402.png` })
    await page.keyboard.press('Escape')
  })

  test('the demo gives a real free answer with the remaining quota', async () => {
    await ready()
    await page.fill('#demo-code', 'let a = 1\nlet b = 2')
    await page.click('#demo-form button')
    await page.waitForSelector('#demo-out[data-status]')
    const text = await page.textContent('#demo-out')
    expect(await page.getAttribute('#demo-out', 'data-status')).toBe('200')
    expect(text).toContain('2-line snippet was explained at the quick tier')
    expect(text).toContain('Free calls left today: 2 of 5')
    await page.screenshot({ path: `${ART}/demo.png` })
  })

  test('the stats chart renders with data and refreshes without a reload', async () => {
    await ready('/?refresh=1')
    await page.waitForSelector('#chart-days rect', { state: 'attached' })
    const before = Number(await page.textContent('[data-stat="Calls today"]'))
    expect(before).toBeGreaterThanOrEqual(3)
    const values = await page
      .locator('#chart-days rect')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))))
    expect(Math.max(...values)).toBeGreaterThanOrEqual(3)
    await post(s.url + '/api/demo/explain', { code: 'more' })
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-stat="Calls today"]')?.textContent) > n,
      before,
      { timeout: 5000 },
    )
    await page.screenshot({ path: `${ART}/stats.png` })
  })

  test('readable on a phone and usable with the keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 800 })
    await ready()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)
    expect(overflow).toBe(false)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A')
    await page.screenshot({ path: `${ART}/phone.png`, fullPage: false })
  })
})
