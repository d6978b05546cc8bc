/**
 * The shared database going away: boot refuses with one clear message; a running instance reports it in /health
 * (503, degraded) and fails closed: a paid call is 503 PAYMENT_UNAVAILABLE before any verification (the payment
 * backend is never asked), the demo is 503, and nothing hangs.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { generatePrivateKey } from 'viem/accounts'
import { boot, ConfigError } from '../../runtime/boot'
import { createLogger } from '../../runtime/log'
import { post, refusingFacilitator, startServer, type TestServer, requirementsAt } from '../support/server'
import { signPayment } from '../support/pay'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import { categories, entries, upstreams } from '../support/entries'

let pg: LocalPostgres
let s: TestServer
const facilitator = refusingFacilitator()
beforeAll(async () => {
  pg = await testPostgres()
  s = await startServer({
    facilitator,
    env: { DATABASE_URL: await pg.createDatabase('down'), DATABASE_STATEMENT_TIMEOUT_MS: '2000' },
  })
}, 60_000)
afterAll(async () => {
  await s?.stop()
  await pg?.stop()
})

test('boot refuses an unreachable DATABASE_URL with one message, without the password', async () => {
  const err = await boot({
    entries,
    upstreams,
    categories,
    env: {
      PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      DATABASE_URL: 'postgres://app:hunter2@127.0.0.1:1/api',
    },
    facilitator: refusingFacilitator(),
    log: createLogger('silent'),
  }).catch((e) => e)
  expect(err).toBeInstanceOf(ConfigError)
  expect(err.message).toContain('Postgres is unreachable')
  expect(err.message).toContain('postgres://app:***@127.0.0.1:1/api')
  expect(err.message).not.toContain('hunter2')
})

test('database down: /health 503 degraded, paid calls 503 before verification, demo 503, /stats 503', async () => {
  const h = await fetch(`${s.url}/health`)
  expect(h.status).toBe(200)
  expect(await h.json()).toMatchObject({ status: 'ok', database_kind: 'postgres' })
  const req = await requirementsAt(`${s.url}/api/v1/slugify`)
  const header = await signPayment({ key: generatePrivateKey(), requirements: req })
  await pg.stop()
  await Bun.sleep(1100) // /health caches its probe for one second
  const down = await fetch(`${s.url}/health`)
  expect(down.status).toBe(503)
  expect(await down.json()).toMatchObject({ status: 'degraded', database: 'error', database_kind: 'postgres' })
  const paid = await post(`${s.url}/api/v1/slugify`, { text: 'x' }, { 'payment-signature': header })
  expect(paid.status).toBe(503)
  expect(((await paid.json()) as { error: { code: string } }).error.code).toBe('PAYMENT_UNAVAILABLE')
  expect(paid.headers.get('retry-after')).toBe('5')
  expect(facilitator.calls).toBe(0)
  const demo = await post(`${s.url}/api/demo/explain`, { code: 'const a = 1' })
  expect(demo.status).toBe(503)
  const stats = await fetch(`${s.url}/stats`)
  expect(stats.status).toBe(503)
  expect(((await stats.json()) as { error: { code: string } }).error.code).toBe('DATABASE_UNAVAILABLE')
  expect(s.logs.join('\n')).not.toContain('hunter2')
}, 30_000)
