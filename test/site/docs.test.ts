/**
 * /docs works offline: real headless Chromium with every request outside the server's origin blocked (and
 * recorded), the reference viewer comes from our own origin (a pinned npm package, no CDN, no `@latest`) and renders
 * the operations; with its script missing, the plain HTML list of operations is what the reader sees.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, BrowserContext } from 'playwright-core'
import { launchChromium } from '../support/browser'
import { startServer, type TestServer } from '../support/server'

const CDN = /unpkg\.com|jsdelivr\.net|cdnjs|esm\.sh|skypack|@latest/
let s: TestServer
let browser: Browser
let operations: number

beforeAll(async () => {
  s = await startServer()
  const doc = (await (await fetch(s.url + '/openapi/full.json')).json()) as { paths: Record<string, object> }
  operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0)
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await s?.stop()
})

/** A browser context where only the server's origin answers; everything else is aborted and listed in `outside`. */
async function offline(block: (url: string) => boolean = () => false) {
  const context: BrowserContext = await browser.newContext()
  const outside: string[] = []
  const origin = new URL(s.url).origin
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (new URL(url).origin !== origin) {
      outside.push(url)
      return route.abort('internetdisconnected')
    }
    return block(url) ? route.abort('failed') : route.continue()
  })
  return { context, outside }
}

test('the viewer renders every operation with the network off, loading nothing from elsewhere', async () => {
  const { context, outside } = await offline()
  const page = await context.newPage()
  const bodies: string[] = []
  page.on('response', async (r) => bodies.push(`${r.url()}\n${await r.text().catch(() => '')}`))
  await page.goto(s.url + '/docs')
  await page.waitForSelector('body[data-viewer="ready"]')
  // The tags start closed (nothing drawn until one is opened: the first render of 125 operations cost a new user
  // seconds, issue #38); opening each lists its operations, so every operation is reachable.
  const tags = page.locator('.opblock-tag')
  await tags.first().waitFor()
  expect(await page.locator('.opblock').count()).toBe(0)
  for (let i = 0, n = await tags.count(); i < n; i++) await tags.nth(i).click()
  await page.waitForFunction((n) => document.querySelectorAll('.opblock').length === n, operations)
  expect(await page.locator('.opblock').count()).toBe(operations)
  expect(await page.locator('.opblock-summary-path').allTextContents()).toEqual(
    expect.arrayContaining(['/api/v1/slugify', '/health']),
  )
  expect(await page.locator('#fallback').isHidden()).toBe(true)
  expect(outside).toEqual([])
  for (const b of bodies) expect(b).not.toMatch(CDN)
  expect(bodies.length).toBeGreaterThanOrEqual(4) // page, stylesheet, bundle, init, the document
  await context.close()
}, 60_000)

test('without the viewer script, the page lists the operations in plain HTML', async () => {
  const { context, outside } = await offline((url) => url.includes('swagger-ui-bundle.js'))
  const page = await context.newPage()
  await page.goto(s.url + '/docs')
  await page.waitForLoadState('load')
  const items = page.locator('#fallback .ops li')
  expect(await items.count()).toBe(operations)
  expect(await page.locator('#fallback').isVisible()).toBe(true)
  expect(await page.locator('#fallback').textContent()).toContain('POST /api/v1/slugify')
  expect(outside).toEqual([])
  await context.close()
}, 60_000)

test('with JavaScript off, the same list; the page forbids other origins by CSP', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  const r = await page.goto(s.url + '/docs')
  expect(r!.headers()['content-security-policy']).toContain("default-src 'self'")
  expect(await page.locator('#fallback .ops li').count()).toBe(operations)
  await context.close()
}, 60_000)

test("the viewer's document is the published 3.1 document in OpenAPI 3.0's words: same operations, no 3.1-only keyword", async () => {
  const full = (await (await fetch(s.url + '/openapi/full.json')).json()) as { openapi: string; paths: object }
  const viewer = (await (await fetch(s.url + '/docs/openapi.json')).json()) as { openapi: string; paths: object }
  expect(full.openapi).toBe('3.1.0')
  expect(viewer.openapi).toBe('3.0.3')
  expect(Object.keys(viewer.paths)).toEqual(Object.keys(full.paths))
  const text = JSON.stringify(viewer)
  expect(text).not.toContain('"const":')
  expect(text).not.toMatch(/"exclusive(Minimum|Maximum)":-?\d/)
  // A `const` became a one-value enum: the same values are still there.
  const consts = [...JSON.stringify(full).matchAll(/"const":("[^"]*")/g)].map((m) => m[1])
  for (const c of new Set(consts)) expect(text).toContain(`"enum":[${c}]`)
})

test('an opened operation shows its shared responses (the viewer resolves their $refs offline)', async () => {
  const { context, outside } = await offline()
  const page = await context.newPage()
  await page.goto(s.url + '/docs')
  await page.waitForSelector('body[data-viewer="ready"]')
  const tags = page.locator('.opblock-tag')
  for (let i = 0, n = await tags.count(); i < n; i++) await tags.nth(i).click()
  await page.locator('.opblock-summary', { has: page.locator('[data-path="/api/v1/slugify"]') }).click()
  await page.locator('.responses-table').first().waitFor()
  for (const words of ['Payment Required', 'Invalid input (nothing charged)', 'X-Ignored-Fields'])
    await page.waitForFunction(
      (w) => [...document.querySelectorAll('.responses-table')].some((t) => t.textContent?.includes(w)),
      words,
    )
  expect(outside).toEqual([])
  await context.close()
}, 60_000)
