/**
 * Retakes the screenshots of the catalog and the operator console in docs/ from the real server, not a test one:
 * starts `runtime/index.ts` on the embedded dev chain (every real service, in a temporary directory), pays a few
 * services with the official @x402/fetch client and its funded demo payer, sends one refused body, then photographs
 * `/` and the signed-in `/admin` with Debian's Chromium (scripts/ensure-chromium.sh).
 * `node scripts/bootstrap.mjs scripts/screenshots.ts` (takes about half a minute).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { launchChromium } from '../test/support/browser'

const root = join(import.meta.dir, '..')
const docs = join(root, 'docs')
const dir = mkdtempSync(join(tmpdir(), 'x402-screenshots-'))
const port = 3400 + Math.floor(Math.random() * 400) + 100
const api = `http://127.0.0.1:${port}`
const token = `screenshots-${crypto.randomUUID()}`
const server = Bun.spawn([process.execPath, join(root, 'runtime', 'index.ts')], {
  cwd: dir,
  env: {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_PATH: join(dir, 'api.sqlite'),
    REGISTRY_PATH: join(root, 'registry.yaml'),
    ADMIN_TOKEN: token,
    LOG_LEVEL: 'warn',
  },
  stdout: 'ignore',
  stderr: 'inherit',
})

async function ready() {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${api}/health`)).ok) return
    } catch {}
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`)
    await Bun.sleep(100)
  }
  throw new Error('the server did not answer /health within 60 s')
}

try {
  await ready()
  const { privateKey } = JSON.parse(readFileSync(join(dir, 'data', 'dev-payer.json'), 'utf8')) as { privateKey: Hex }
  const pay = wrapFetchWithPayment(
    fetch,
    new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(privateKey))),
  )
  const calls: Array<[string, unknown, number]> = [
    ['slugify', { text: 'Hello, paid world!' }, 3],
    ['hash-digest', { text: 'abc', algo: 'sha256' }, 2],
    ['roman-numeral', { value: 2026 }, 2],
    ['iso-week-date', { date: '2026-11-22' }, 1],
    ['loan-amortization-schedule', { principal: 200000, apr: 0.065, term_years: 30, start_date: '2025-01-15' }, 1],
    ['uuid-generate', {}, 2],
  ]
  for (const [slug, body, times] of calls)
    for (let i = 0; i < times; i++) {
      const r = await pay(`${api}/api/v1/${slug}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      console.log(`${r.status} ${slug}`)
      await r.arrayBuffer()
    }
  // a refused body (422, free): the console's errors by code
  await fetch(`${api}/api/v1/roman-numeral`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"value":"many"}',
  })
  await Bun.sleep(1500) // the traffic counters are flushed once a second

  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await page.goto(`${api}/`)
    await page.waitForSelector('body[data-ready="true"]')
    await page.screenshot({ path: join(docs, 'screenshot-catalog.png') })

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const admin = await ctx.newPage()
    await admin.goto(`${api}/admin`)
    await admin.fill('#token', token)
    await admin.press('#token', 'Enter')
    await admin.waitForSelector('body[data-ready="true"]')
    await admin.screenshot({ path: join(docs, 'screenshot-admin.png'), fullPage: true })
    await admin.setViewportSize({ width: 390, height: 844 })
    await admin.goto(`${api}/admin`)
    await admin.waitForSelector('body[data-ready="true"]')
    await admin.screenshot({ path: join(docs, 'screenshot-admin-phone.png') })
  } finally {
    await browser.close()
  }
  console.log('wrote docs/screenshot-catalog.png, docs/screenshot-admin.png, docs/screenshot-admin-phone.png')
} finally {
  server.kill('SIGTERM')
  await server.exited
  rmSync(dir, { recursive: true, force: true })
}
