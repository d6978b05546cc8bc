/**
 * Console sessions with no session store: the signed cookie itself (unit, real SQLite generation row), a session
 * that survives a restart on SQLite and ends when the token is rotated, and two server processes on one Postgres
 * where a sign-in on one instance works on the other, sign-out on either ends it on both, and the errors-by-code
 * panel shows both instances' counts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { SessionGeneration } from '../../runtime/db/sqlite/admin-state'
import { SignedSessions } from '../../runtime/admin/session'
import { startServer } from '../support/server'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import type { Child } from '../../bench/lib'
import { onPostgres, startServerProcess } from '../support/server-process'
import { sqliteOf } from '../../runtime/db/open'

const TOKEN = 'sessions-test-token-0123456789abcdef'
const OTHER = 'another-admin-token-0123456789abcdef'

const form = (origin: string, token = TOKEN) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
  body: new URLSearchParams({ token }).toString(),
})
async function signIn(base: string): Promise<string> {
  const r = await fetch(base + '/admin/login', form(base))
  expect(r.status).toBe(303)
  return r.headers.get('set-cookie')!.split(';')[0]
}
const overview = (base: string, cookie: string) => fetch(base + '/admin/api/overview', { headers: { cookie } })
const signOut = (base: string, cookie: string) =>
  fetch(base + '/admin/logout', { method: 'POST', redirect: 'manual', headers: { cookie, origin: base } })

describe('signed session cookie', () => {
  const clock = { ms: Date.UTC(2026, 10, 23, 9, 0, 0) }
  const db = openDatabase(':memory:')
  const gen = new SessionGeneration(db)
  const sessions = new SignedSessions(TOKEN, gen, 3_600_000, () => clock.ms)
  afterAll(() => db.close())

  test('valid as issued; any change to generation, expiry or signature, or another token, is refused', async () => {
    const { value, maxAgeSeconds } = await sessions.create()
    expect(maxAgeSeconds).toBe(3600)
    expect(value).not.toContain(TOKEN)
    expect(await sessions.valid(value)).toBe(true)
    const [g, exp, mac] = value.split('.')
    expect(g).toBe('0')
    expect(Number(exp)).toBe(clock.ms + 3_600_000)
    for (const bad of [
      `1.${exp}.${mac}`,
      `${g}.${Number(exp) + 1}.${mac}`,
      `${g}.${exp}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${g}.${exp}.${mac}x`,
      `${g}.${exp}`,
      '',
      'x'.repeat(5000),
    ])
      expect(await sessions.valid(bad)).toBe(false)
    expect(await new SignedSessions(OTHER, gen, 3_600_000, () => clock.ms).valid(value)).toBe(false)
  })

  test('expires at its expiry; one signed too far ahead (a clock far off) is refused', async () => {
    const { value } = await sessions.create()
    clock.ms += 3_600_000 - 1
    expect(await sessions.valid(value)).toBe(true)
    clock.ms += 1
    expect(await sessions.valid(value)).toBe(false)
    const ahead = await new SignedSessions(TOKEN, gen, 3_600_000, () => clock.ms + 3_600_000).create()
    expect(await sessions.valid(ahead.value)).toBe(false)
  })

  test('ending the sessions moves the generation on: earlier cookies stop working, new ones work', async () => {
    const before = await sessions.create()
    await sessions.endAll()
    expect(gen.current()).toBe(1)
    expect(await sessions.valid(before.value)).toBe(false)
    const after = await sessions.create()
    expect(after.value.startsWith('1.')).toBe(true)
    expect(await sessions.valid(after.value)).toBe(true)
  })
})

describe('on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'admin-sessions-'))
  const env = (token = TOKEN) => ({ ADMIN_TOKEN: token, DATABASE_PATH: join(dir, 'db.sqlite') })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('a session survives a restart, ends when the token is rotated, and a sign-out stays in force after a restart', async () => {
    let s = await startServer({ env: env() })
    const cookie = await signIn(s.url)
    expect((await overview(s.url, cookie)).status).toBe(200)
    await s.stop()
    s = await startServer({ env: env() })
    try {
      expect((await overview(s.url, cookie)).status).toBe(200)
      expect(await (await fetch(s.url + '/admin', { headers: { cookie } })).text()).toContain('/admin/admin.js')
    } finally {
      await s.stop()
    }
    s = await startServer({ env: env(OTHER) })
    try {
      expect((await overview(s.url, cookie)).status).toBe(401)
    } finally {
      await s.stop()
    }
    s = await startServer({ env: env() })
    try {
      expect((await overview(s.url, cookie)).status).toBe(200)
      expect((await signOut(s.url, cookie)).status).toBe(303)
    } finally {
      await s.stop()
    }
    s = await startServer({ env: env() })
    try {
      expect((await overview(s.url, cookie)).status).toBe(401)
      expect((await overview(s.url, await signIn(s.url))).status).toBe(200)
    } finally {
      await s.stop()
    }
  }, 60_000)
})

test('fail closed: when the session generation cannot be read, a cookie gets 503 (a forged one still 401, the bearer token still works)', async () => {
  const s = await startServer({ env: { ADMIN_TOKEN: TOKEN } })
  try {
    const cookie = await signIn(s.url)
    sqliteOf(s.booted).db.run('ALTER TABLE admin_state RENAME TO admin_state_away')
    const api = await overview(s.url, cookie)
    expect(api.status).toBe(503)
    expect(api.headers.get('cache-control')).toBe('no-store')
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('DATABASE_UNAVAILABLE')
    const page = await fetch(s.url + '/admin', { headers: { cookie } })
    expect(page.status).toBe(503)
    expect(await page.text()).not.toContain('/admin/admin.js')
    expect((await signOut(s.url, cookie)).status).toBe(503)
    const forged = `admin_session=0.${Date.now() + 60_000}.${'A'.repeat(43)}`
    expect((await overview(s.url, forged)).status).toBe(401)
    const bearer = await fetch(s.url + '/admin/api/payments', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(bearer.status).toBe(200)
    sqliteOf(s.booted).db.run('ALTER TABLE admin_state_away RENAME TO admin_state')
    expect((await overview(s.url, cookie)).status).toBe(200)
  } finally {
    await s.stop()
  }
})

describe('two instances on one Postgres', () => {
  let pg: LocalPostgres
  const servers: Child[] = []
  const base = (i: number) => `http://127.0.0.1:${servers[i].port}`
  beforeAll(async () => {
    pg = await testPostgres()
    const url = await pg.createDatabase('sessions')
    const start = (i: number) =>
      startServerProcess({
        ...onPostgres(url, `admin-${i}`, 3),
        ADMIN_TOKEN: TOKEN,
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
    await pg?.stop()
  })

  test('a sign-in on instance A works on instance B; signing out on B ends it on A', async () => {
    const cookie = await signIn(base(0))
    for (const i of [0, 1]) {
      expect((await overview(base(i), cookie)).status).toBe(200)
      expect(await (await fetch(base(i) + '/admin', { headers: { cookie } })).text()).toContain('/admin/admin.js')
    }
    expect((await signOut(base(1), cookie)).status).toBe(303)
    for (const i of [0, 1]) expect((await overview(base(i), cookie)).status).toBe(401)
    const again = await signIn(base(1))
    expect((await overview(base(0), again)).status).toBe(200)
  }, 30_000)

  test("the errors-by-code panel shows both instances' counts", async () => {
    const cookie = await signIn(base(0))
    const fail = (i: number) =>
      fetch(base(i) + '/api/v1/explain-code', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"code":"x"}',
      })
    // no model is configured: the tiered service answers 503 with its own code
    const first = await fail(0)
    expect(first.status).toBe(503)
    const code = ((await first.json()) as { error: { code: string } }).error.code
    expect((await fail(1)).status).toBe(503)
    expect((await fail(1)).status).toBe(503)
    const want = [{ slug: 'explain-code', code, status: 503, count: 3 }]
    for (const i of [0, 1]) {
      let got: unknown
      const t = Date.now()
      // counts reach the shared table within a flush (1 s): poll for them, no fixed wait
      while (Date.now() - t < 20_000) {
        got = ((await (await overview(base(i), cookie)).json()) as { errors: { by_code: unknown } }).errors.by_code
        if (JSON.stringify(got) === JSON.stringify(want)) break
        await Bun.sleep(50)
      }
      expect(got).toEqual(want)
    }
  }, 30_000)
})
