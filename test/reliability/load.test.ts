/**
 * Mixed load against a real server process and a real chain: free endpoints, 402 challenges, paid calls, the demo,
 * bad input. No unexpected status, flat memory, and the money adds up exactly: settled ledger = /stats revenue =
 * the payee's on-chain balance change. LOAD_SECONDS (default 5) sets the duration; `bun run test:long` uses 60.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { rss, type Child } from '../../bench/lib'
import { readDb, startServerProcess } from '../support/server-process'
import { signPayment } from '../support/pay'
import { post, requirementsAt } from '../support/server'

const SECONDS = Number(process.env.LOAD_SECONDS ?? 5)
const CONCURRENCY = 8
let chain: DevChain
let s: Child
let dir: string
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10_000_000_000n })
  dir = mkdtempSync(join(tmpdir(), 'load-'))
  s = await startServerProcess({
    LOG_LEVEL: process.env.LOAD_LOG ?? 'silent',
    DATABASE_PATH: join(dir, 'db.sqlite'),
    INVALID_PAYMENT_LIMIT: '0',
    RPC_URL: chain.rpcUrl,
    SETTLER_PRIVATE_KEY: chain.settler.privateKey,
    PAY_TO: chain.payee.address,
    DEMO_DAILY_LIMIT: '1000000',
  })
})
afterAll(async () => {
  await s?.stop()
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
})

test(`mixed traffic for ${SECONDS} s: no unexpected errors, flat memory, money reconciles exactly`, async () => {
  const base = `http://127.0.0.1:${s.port}`
  const req = await requirementsAt(base + '/api/v1/hash-digest')
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const demoAvailable = ((await (await fetch(base + '/services')).json()) as any).services.find(
    (x: any) => x.slug === 'explain-code',
  )?.available
  const kinds: Array<[string, () => Promise<Response>, number[]]> = [
    ['health', () => fetch(base + '/health'), [200]],
    ['services', () => fetch(base + '/services'), [200]],
    ['challenge', () => post(base + '/api/v1/hash-digest', {}), [402]],
    // signed just before sending: an authorization is valid for 60 s, and long runs outlast any pre-signed pool
    [
      'paid',
      async () =>
        post(
          base + '/api/v1/hash-digest',
          { text: 'load', algo: 'sha256' },
          { 'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }) },
        ),
      [200],
    ],
    ['bad input', () => post(base + '/api/v1/hash-digest', { text: 5 }, { 'payment-signature': 'e30=' }), [422]],
    ['bad json', () => post(base + '/api/v1/roman-numeral', '{"value":', { 'payment-signature': 'e30=' }), [400]],
    ['demo', () => post(base + '/api/demo/explain', { code: 'x = 1' }), demoAvailable ? [200] : [501, 503]],
    ['not found', () => fetch(base + '/nope'), [404]],
  ]
  const counts = new Map<string, number>()
  const unexpected: string[] = []
  const rss0 = rss(s.pid).nowMb
  const end = Date.now() + SECONDS * 1000
  let i = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const [name, call, ok] = kinds[i++ % kinds.length]
        const r = await call()
        const text = await r.text()
        counts.set(`${name} ${r.status}`, (counts.get(`${name} ${r.status}`) ?? 0) + 1)
        // an unexpected answer names its error code and message, so a rare failure can be diagnosed from the run
        if (!ok.includes(r.status)) unexpected.push(`${name}: ${r.status} ${text.slice(0, 300)}`)
      }
    }),
  )
  const total = [...counts.values()].reduce((a, b) => a + b, 0)
  const rss1 = rss(s.pid).nowMb
  console.log(
    `load: ${total} requests in ${SECONDS} s (${Math.round(total / SECONDS)}/s); RSS ${rss0.toFixed(0)} -> ${rss1.toFixed(0)} MB`,
    Object.fromEntries(counts),
  )
  if (unexpected.length)
    console.log(
      s.lines
        .filter((l) => l.includes('"level":"warn"') || l.includes('"level":"error"'))
        .slice(0, 5)
        .join('\n'),
    )
  expect(unexpected.slice(0, 10)).toEqual([])
  expect(rss1 - rss0).toBeLessThan(150)
  // money: ledger == stats == chain
  const paidOk = counts.get('paid 200') ?? 0
  expect(paidOk).toBeGreaterThan(0)
  const settled = readDb(
    join(dir, 'db.sqlite'),
    (db) =>
      db
        .query(
          `SELECT COALESCE(SUM(CAST(amount AS INTEGER)), 0) AS s, COUNT(*) AS n FROM payments WHERE state = 'settled'`,
        )
        .get() as { s: number; n: number },
  )
  const stats = (await (await fetch(base + '/stats')).json()) as any
  const moved = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before
  expect(settled.n).toBe(paidOk)
  expect(BigInt(settled.s)).toBe(moved)
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(moved)
  expect(moved).toBe(BigInt(paidOk) * 1000n)
}, 180_000)
