/**
 * The operator console's API gives the same answers on SQLite and on Postgres: the same ledger history written
 * through each engine's storage, then /admin/api/payments, /payments/:id and /overview compared field by field
 * (times and ids aside).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startServer, type TestServer } from '../support/server'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import { reservation } from '../support/reservation'

const TOKEN = 'engines-test-token-abcdefghijklmnop'
let pg: LocalPostgres
const servers: Record<'sqlite' | 'postgres', TestServer> = {} as never
beforeAll(async () => {
  pg = await testPostgres()
  servers.sqlite = await startServer({ env: { ADMIN_TOKEN: TOKEN } })
  servers.postgres = await startServer({ env: { ADMIN_TOKEN: TOKEN, DATABASE_URL: await pg.createDatabase('admin') } })
}, 60_000)
afterAll(async () => {
  await servers.sqlite?.stop()
  await servers.postgres?.stop()
  await pg?.stop()
})

const res = (n: number, slug: string, amount: string) =>
  reservation(n, { slug, amount, requestId: `req_${n}`, payload: { secret: 'signature-not-shown' } })

async function history(s: TestServer): Promise<number[]> {
  const l = s.booted.storage.ledger
  const a = (await l.reserve(res(1, 'slugify', '1000')))!
  await l.transition(a, 'verified')
  await l.transition(a, 'settling', { tx: '0x' + 'a'.repeat(64) })
  await l.settleOnce(a, { tx: '0x' + 'a'.repeat(64), gasUsed: '61234', effectiveGasPrice: '1000000007' })
  const b = (await l.reserve(res(2, 'slugify', '1000')))!
  await l.transition(b, 'verified')
  await l.transition(b, 'released', { reason: 'handler 502 UPSTREAM_ERROR' })
  const c = (await l.reserve(res(3, 'hash-digest', '9007199254740993')))!
  await l.transition(c, 'verified')
  await l.transition(c, 'settling', { tx: '0x' + 'c'.repeat(64) })
  await l.transition(c, 'pending', { reason: 'settlement_pending' })
  await s.booted.storage.quota.consume('1.2.3.4')
  return [a, b, c]
}

const get = async (s: TestServer, path: string) => {
  const r = await fetch(s.url + path, { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(r.status).toBe(200)
  return r.json() as Promise<Record<string, any>>
}
/** Drops what legitimately differs between two servers: times, ids, the payee balance and process-local figures. */
const strip = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(strip)
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(
          ([k]) =>
            ![
              'created_at',
              'updated_at',
              'settled_at',
              'at',
              'id',
              'upstreams',
              'payee_balance_atomic',
              'facilitator',
            ].includes(k),
        )
        .map(([k, x]) => [k, strip(x)]),
    )
  return v
}

test('/health names the engine', async () => {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const h = await fetch(servers[kind].url + '/health')
    expect(h.status).toBe(200)
    expect(await h.json()).toMatchObject({ database: 'ok', database_kind: kind })
  }
})

test('payments, one payment with its events, and the overview are the same on both engines', async () => {
  const ids = { sqlite: await history(servers.sqlite), postgres: await history(servers.postgres) }
  const list = {
    sqlite: await get(servers.sqlite, '/admin/api/payments?limit=10'),
    postgres: await get(servers.postgres, '/admin/api/payments?limit=10'),
  }
  expect(list.postgres.count).toBe(3)
  expect(strip(list.postgres)).toEqual(strip(list.sqlite))
  expect(JSON.stringify(list.postgres)).not.toContain('signature-not-shown')
  expect(list.postgres.payments[2]).toMatchObject({
    state: 'settled',
    amount: '1000',
    gas_cost_wei: (61234n * 1000000007n).toString(),
  })
  const settledOnly = await get(servers.postgres, '/admin/api/payments?state=settled&limit=5')
  expect(settledOnly.payments.map((p: { id: number }) => p.id)).toEqual([ids.postgres[0]])
  const one = {
    sqlite: await get(servers.sqlite, `/admin/api/payments/${ids.sqlite[2]}`),
    postgres: await get(servers.postgres, `/admin/api/payments/${ids.postgres[2]}`),
  }
  expect(one.postgres.events.map((e: { state: string }) => e.state)).toEqual([
    'reserved',
    'verified',
    'settling',
    'pending',
  ])
  expect(strip(one.postgres)).toEqual(strip(one.sqlite))
  const ov = {
    sqlite: await get(servers.sqlite, '/admin/api/overview'),
    postgres: await get(servers.postgres, '/admin/api/overview'),
  }
  expect(ov.postgres.payment_states).toEqual({ settled: 1, released: 1, pending: 1 })
  expect(ov.postgres.errors.paid_failures_by_code).toEqual([
    { slug: 'slugify', code: 'UPSTREAM_ERROR', status: 502, count: 1 },
  ])
  expect(ov.postgres.demo.today).toMatchObject({ clients: 1, calls: 1 })
  expect(strip(ov.postgres)).toEqual(strip(ov.sqlite))
})

test("the console's revenue and gas per day and per service equal /stats on both engines", async () => {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const s = servers[kind]
    const l = s.booted.storage.ledger
    // a second settled payment of another service with gas, and one settled without known gas
    const d = (await l.reserve(res(40, 'hash-digest', '2500')))!
    await l.settleOnce(d, { tx: '0x' + 'd'.repeat(64), gasUsed: '50000', effectiveGasPrice: '3' })
    const e = (await l.reserve(res(41, 'hash-digest', '2500')))!
    await l.settleOnce(e, { tx: '0x' + 'e'.repeat(64) })
    const money = (await get(s, '/admin/api/overview')).money
    const stats = (await (await fetch(s.url + '/stats')).json()) as Record<string, any>
    const paid = (rows: Array<Record<string, any>>) => rows.filter((r) => r.paid_calls > 0)
    expect(money.days).toEqual(
      paid(stats.days).map((r) => ({
        day: r.day,
        revenue_atomic: r.revenue_atomic,
        revenue_usd: r.revenue_usd,
        gas_wei: r.gas_wei,
        settled: r.paid_calls,
      })),
    )
    const bySlug = new Map(paid(stats.services).map((r) => [r.slug, r]))
    expect(money.services.map((m: Record<string, any>) => m.slug).sort()).toEqual([...bySlug.keys()].sort())
    for (const m of money.services) {
      const r = bySlug.get(m.slug)!
      expect([m.revenue_atomic, m.gas_wei, m.settled]).toEqual([r.revenue_atomic, r.gas_wei, r.paid_calls])
    }
    expect(money.services).toEqual([
      {
        slug: 'hash-digest',
        revenue_atomic: '5000',
        revenue_usd: 0.005,
        gas_wei: '150000',
        settled: 2,
        avg_gas_used: 50000,
      },
      {
        slug: 'slugify',
        revenue_atomic: '1000',
        revenue_usd: 0.001,
        gas_wei: (61234n * 1000000007n).toString(),
        settled: 1,
        avg_gas_used: 61234,
      },
    ])
    // #24: a testnet payment with the same authorization is its own payment and its own figure on both surfaces
    const t = (await l.reserve({ ...res(41, 'hash-digest', '777000'), network: 'eip155:84532' }))!
    await l.settleOnce(t, { tx: '0x' + 'f'.repeat(64) })
    const after = (await get(s, '/admin/api/overview')).money
    const statsAfter = (await (await fetch(s.url + '/stats')).json()) as Record<string, any>
    expect(after.services).toEqual(money.services)
    expect(statsAfter.totals.revenue_atomic).toBe(stats.totals.revenue_atomic)
    expect(after.networks.map((n: Record<string, any>) => [n.network, n.revenue_atomic, n.settled])).toEqual(
      statsAfter.networks.map((n: Record<string, any>) => [n.network, n.revenue_atomic, n.paid_calls]),
    )
    expect(after.networks.map((n: Record<string, any>) => n.network)).toEqual(['eip155:8453', 'eip155:84532'])
    expect(after.networks[1]).toMatchObject({ revenue_atomic: '777000', settled: 1 })
  }
})
