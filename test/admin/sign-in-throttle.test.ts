/**
 * The console's sign-in throttle (10 failed tries per client per 5 minutes) on Postgres is one count shared by every
 * instance: two server processes on one real Postgres, failures spread over both, the 11th try refused on either.
 * Its rows share the `refusals` table with the payment refusal throttle (1 minute) without either resetting or
 * counting the other's windows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { SQL } from 'bun'
import { PgThrottle } from '../../runtime/db/postgres/throttle'
import { SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS } from '../../runtime/db/throttle'
import { testPostgresPools, type TestPools } from '../support/postgres'
import type { Child } from '../../bench/lib'
import { onPostgres, startServerProcess } from '../support/server-process'

const TOKEN = 'throttle-test-token-0123456789abcdef'
const WRONG = 'not-the-token-0123456789abcdef-xyz'

let pg: TestPools
beforeAll(async () => {
  pg = await testPostgresPools()
}, 120_000)
afterAll(() => pg?.stop())

describe('buckets in one refusals table', () => {
  let sql: SQL
  beforeAll(async () => {
    sql = await pg.fresh('buckets', 4)
  })

  test("the payment throttle's cleanup (1-minute window) keeps the sign-in windows (5 minutes), and the reverse", async () => {
    let now = 10_000_000
    const pay = new PgThrottle(sql, 3, 60_000, () => now)
    const signIns = new PgThrottle(sql, 2, 300_000, () => now, 'sign-in')
    // the same key in both buckets: two separate counts
    await signIns.hit('1.2.3.4')
    await signIns.hit('1.2.3.4')
    expect(await signIns.blocked('1.2.3.4')).toBe(true)
    expect(await pay.blocked('1.2.3.4')).toBe(false)
    await pay.hit('1.2.3.4')
    expect(await pay.blocked('1.2.3.4')).toBe(false)
    const keys = async () =>
      ((await sql`SELECT key FROM refusals ORDER BY key`) as Array<{ key: string }>).map((r) => r.key)
    expect(await keys()).toEqual(['1.2.3.4', 'sign-in#1.2.3.4'])

    // two minutes on: both payment and sign-in rows are older than a minute; 100 payment hits run its cleanup
    now += 120_000
    for (let i = 0; i < 100; i++) await pay.hit(`10.0.0.${i}`)
    expect(await keys()).not.toContain('1.2.3.4') // its own expired window: cleaned
    expect(await keys()).toContain('sign-in#1.2.3.4') // the console's window (5 minutes) is not the payments' to end
    expect(await signIns.blocked('1.2.3.4')).toBe(true)
    expect(signIns.retryAfter('1.2.3.4')).toBe(180)

    // the sign-in throttle's own cleanup ends only its own expired windows
    now += 180_000
    expect(await signIns.blocked('1.2.3.4')).toBe(false)
    for (let i = 0; i < 100; i++) await signIns.hit(`10.1.0.${i}`)
    const left = await keys()
    expect(left).not.toContain('sign-in#1.2.3.4')
    expect(left.filter((k) => !k.startsWith('sign-in#')).length).toBe(100) // payment rows (expired or not) untouched
    expect(() => new PgThrottle(sql, 1, 1000, undefined, 'a#b')).toThrow()
  })
})

describe('two instances on one Postgres', () => {
  const servers: Child[] = []
  const base = (i: number) => `http://127.0.0.1:${servers[i].port}`
  let url = ''
  beforeAll(async () => {
    url = await pg.pg.createDatabase('signins')
    const start = (i: number) =>
      startServerProcess({
        ...onPostgres(url, `signin-${i}`, 3),
        ADMIN_TOKEN: TOKEN,
        // one proxy in front: the client is the X-Forwarded-For address (so the test can be several clients)
        TRUSTED_PROXIES: '1',
        // a remote facilitator that is never reached: these tests make no payment
        FACILITATOR_URL: 'http://127.0.0.1:9',
        PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      })
    // one at a time: both migrate the same database at boot
    servers.push(await start(0))
    servers.push(await start(1))
  }, 120_000)
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => {})))
  })

  const signIn = (i: number, client: string, token: string) =>
    fetch(base(i) + '/admin/login', {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: base(i),
        'x-forwarded-for': client,
      },
      body: new URLSearchParams({ token }).toString(),
    })
  const bearer = (i: number, client: string, token: string) =>
    fetch(base(i) + '/admin/api/overview', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client } })

  test('10 failed sign-ins spread over both instances: the 11th is refused on either, the right token still passes', async () => {
    const client = '203.0.113.7'
    expect(SIGN_IN_LIMIT).toBe(10)
    for (let n = 0; n < SIGN_IN_LIMIT; n++) {
      // sign-in form and bearer token failures count alike, on whichever instance they land
      const r = n % 3 === 2 ? await bearer(n % 2, client, WRONG) : await signIn(n % 2, client, WRONG)
      expect(r.status).toBe(401)
    }
    for (const i of [0, 1]) {
      const form = await signIn(i, client, WRONG)
      expect(form.status).toBe(429)
      expect(await form.text()).toContain('Too many failed attempts')
      const retry = Number(form.headers.get('retry-after'))
      // the console's own window (5 minutes), not the payments' minute
      expect(retry).toBeGreaterThan(60)
      expect(retry).toBeLessThanOrEqual(SIGN_IN_WINDOW_MS / 1000)
      const api = await bearer(i, client, WRONG)
      expect(api.status).toBe(429)
      expect(((await api.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_ATTEMPTS')
      // #24: the right token is never locked out by wrong ones from the same address
      expect((await signIn(i, client, TOKEN)).status).toBe(303)
      expect((await bearer(i, client, TOKEN)).status).toBe(200)
    }
    // another client is not affected, on either instance
    expect((await signIn(1, '198.51.100.9', TOKEN)).status).toBe(303)
    expect((await bearer(0, '198.51.100.9', TOKEN)).status).toBe(200)
  }, 60_000)

  test('9 failures over both instances leave the client one more try (a success does not count)', async () => {
    const client = '203.0.113.8'
    for (let n = 0; n < SIGN_IN_LIMIT - 1; n++) expect((await signIn(n % 2, client, WRONG)).status).toBe(401)
    expect((await signIn(0, client, TOKEN)).status).toBe(303)
    expect((await signIn(1, client, WRONG)).status).toBe(401) // the 10th failure
    expect((await signIn(0, client, WRONG)).status).toBe(429)
    expect((await signIn(1, client, TOKEN)).status).toBe(303)
  }, 60_000)

  test('fail closed: while the shared count cannot be read, wrong sign-ins and bearer tokens get 503; the right token passes', async () => {
    const sql = await pg.pool(url, 2)
    const client = '203.0.113.9'
    await sql`ALTER TABLE refusals RENAME TO refusals_away`
    try {
      for (const i of [0, 1]) {
        const form = await signIn(i, client, WRONG)
        expect(form.status).toBe(503)
        expect(form.headers.get('retry-after')).toBe('5')
        const api = await bearer(i, client, WRONG)
        expect(api.status).toBe(503)
        expect(((await api.json()) as { error: { code: string } }).error.code).toBe('DATABASE_UNAVAILABLE')
        expect((await signIn(i, client, TOKEN)).status).toBe(303)
        expect((await bearer(i, client, TOKEN)).status).toBe(200)
      }
    } finally {
      await sql`ALTER TABLE refusals_away RENAME TO refusals`
    }
    expect((await signIn(0, client, TOKEN)).status).toBe(303)
    expect((await bearer(1, client, TOKEN)).status).toBe(200)
  }, 60_000)
})
