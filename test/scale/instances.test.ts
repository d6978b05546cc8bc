/**
 * Scale-out, for real: three server processes on one Postgres (started from npm) and one anvil chain (real USDC),
 * each instance with its own settler key. One payment sent 20 times across the three at once runs one handler and
 * moves money once; the demo's daily quota holds across instances; /stats is the same from every instance and
 * equals the chain; an instance killed (-9) mid-settlement has its row finished by another instance's reconciler.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SQL } from 'bun'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { setEthBalance, usdcBalance } from '../../runtime/chain/usdc'
import type { Child } from '../../bench/lib'
import { onPostgres, startServerProcess } from '../support/server-process'
import { MINED_ANSWERS, startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import { PgCooldowns } from '../../runtime/db/postgres/cooldowns'
import { signPayment } from '../support/pay'
import { until } from '../support/until'
import { post, requirementsAt } from '../support/server'

let chain: DevChain
let pg: LocalPostgres
let proxy: FaultProxy
let fake: FakeOpenAI
let sql: SQL
let dbUrl: string
const servers: Child[] = []
const settlers = [generatePrivateKey(), generatePrivateKey(), generatePrivateKey()]
let startBalance = 0n

const start = (i: number) =>
  startServerProcess({
    ...onPostgres(dbUrl, `i${i}`, 5),
    // instance 0 talks to the chain through a proxy, so a test can hold its settlement mid-flight
    RPC_URL: i === 0 ? proxy.url : chain.rpcUrl,
    SETTLER_PRIVATE_KEY: settlers[i],
    PAY_TO: chain.payee.address,
    RECONCILE_EVERY_MS: '300',
    RECONCILE_STALE_MS: '3000',
    DEMO_DAILY_LIMIT: '5',
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'test-key',
  })

beforeAll(async () => {
  ;[chain, pg] = await Promise.all([startDevChain(), testPostgres()])
  proxy = startFaultProxy(chain.rpcUrl)
  fake = startFakeOpenAI()
  dbUrl = await pg.createDatabase('scale')
  sql = new SQL({ url: dbUrl, max: 2 })
  await Promise.all(settlers.map((k) => setEthBalance(chain.rpcUrl, privateKeyToAccount(k).address, 10n ** 20n)))
  startBalance = await usdcBalance(chain.rpcUrl, chain.payee.address)
  servers.push(...(await Promise.all([0, 1, 2].map(start))))
}, 120_000)

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop().catch(() => {})))
  await sql?.close().catch(() => {})
  proxy?.stop()
  fake?.close()
  await Promise.all([chain?.stop(), pg?.stop()])
})

const base = (i: number) => `http://127.0.0.1:${servers[i].port}`
const stats = async (i: number) =>
  (await (await fetch(`${base(i)}/stats/today`)).json()) as {
    totals: Record<string, unknown>
    services: Array<Record<string, unknown>>
  }
const settledTotal = async () =>
  BigInt((await sql`SELECT COALESCE(SUM(amount::numeric), 0)::text AS t FROM payments WHERE state = 'settled'`)[0].t)
const payeeDelta = async () => (await usdcBalance(chain.rpcUrl, chain.payee.address)) - startBalance

test('/health names the database and every instance is up', async () => {
  for (const i of [0, 1, 2]) {
    const h = (await (await fetch(`${base(i)}/health`)).json()) as Record<string, unknown>
    expect(h).toMatchObject({ status: 'ok', database: 'ok', database_kind: 'postgres' })
  }
})

test('one payment sent 20 times across three instances at once: one 200, one transfer, 19 refused before the handler', async () => {
  const url = (i: number) => `${base(i)}/api/v1/slugify`
  const req = await requirementsAt(url(0))
  const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
  const before = await payeeDelta()
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, n) => post(url(n % 3), { text: `copy ${n}` }, { 'payment-signature': header })),
  )
  const codes = answers.map((r) => r.status)
  expect(codes.filter((c) => c === 200).length).toBe(1)
  expect(codes.filter((c) => c === 402).length).toBe(19)
  for (const r of answers.filter((x) => x.status === 402))
    expect(((await r.json()) as { reason?: string }).reason).toBe('authorization_already_used')
  expect((await payeeDelta()) - before).toBe(BigInt(req.amount))
  const rows =
    await sql`SELECT state, instance FROM payments WHERE nonce = ${JSON.parse(Buffer.from(header, 'base64').toString()).payload.authorization.nonce.toLowerCase()}`
  expect(rows.map((r: { state: string }) => r.state)).toEqual(['settled'])
  // the handler ran once: one call counted across the three instances (traffic counters flush every second)
  await until(async () =>
    (await Promise.all([0, 1, 2].map(stats))).every((s) => s.services.find((x) => x.slug === 'slugify')?.calls === 1),
  )
})

test("the demo's 5 calls a day hold across instances", async () => {
  for (let i = 0; i < 12; i++) fake.reply({ text: 'It adds one.', tokens: 10 })
  const codes: number[] = []
  for (let n = 0; n < 8; n++)
    codes.push((await post(`${base(n % 3)}/api/demo/explain`, { code: `const f = (x) => x + ${n}` })).status)
  expect(codes.filter((c) => c === 200).length).toBe(5)
  expect(codes.slice(5)).toEqual([429, 429, 429])
  fake.reset()
})

test('/stats is identical from every instance and equals the ledger and the chain', async () => {
  const chainDelta = await payeeDelta()
  expect(chainDelta).toBe(await settledTotal())
  await until(async () => {
    const all = await Promise.all([0, 1, 2].map(stats))
    return (
      all.every((s) => JSON.stringify(s.totals) === JSON.stringify(all[0].totals)) && all[0].totals.demo_calls === 5
    )
  })
  const s = await stats(1)
  expect(BigInt(s.totals.revenue_atomic as string)).toBe(chainDelta)
})

test('a payer funded for three calls sends ten payments across the instances at once: three run, three settle', async () => {
  const key = generatePrivateKey()
  const address = privateKeyToAccount(key).address
  await fundPayer(chain, address, 3000n)
  const req = await requirementsAt(`${base(1)}/api/v1/slugify`)
  const callsBefore = (await stats(1)).services.find((x) => x.slug === 'slugify')?.calls as number
  const headers = await Promise.all(Array.from({ length: 10 }, () => signPayment({ key, requirements: req })))
  const answers = await Promise.all(
    headers.map((h, n) => post(`${base(n % 3)}/api/v1/slugify`, { text: `payer ${n}` }, { 'payment-signature': h })),
  )
  const codes = answers.map((r) => r.status)
  expect(codes.filter((c) => c === 200).length).toBe(3)
  expect(codes.filter((c) => c === 402).length).toBe(7)
  expect(await usdcBalance(chain.rpcUrl, address)).toBe(0n)
  // seven refused before their handler: three more calls counted, across the instances
  await until(async () =>
    (await Promise.all([0, 1, 2].map(stats))).every(
      (s) => s.services.find((x) => x.slug === 'slugify')?.calls === callsBefore + 3,
    ),
  )
  expect(await payeeDelta()).toBe(await settledTotal())
})

test('a payer cooled down by one instance is refused by every instance, before reservation and its handler', async () => {
  const key = generatePrivateKey()
  const address = privateKeyToAccount(key).address
  await fundPayer(chain, address, 3000n)
  // a failed settlement after verification, as recorded by any instance (same table, same statement)
  expect(await new PgCooldowns(sql).strike(address.toUpperCase().replace('0X', '0x'))).toBe(30_000)
  const req = await requirementsAt(`${base(2)}/api/v1/slugify`)
  const before = await payeeDelta()
  for (const i of [0, 1, 2]) {
    const r = await post(
      `${base(i)}/api/v1/slugify`,
      { text: 'cooling' },
      { 'payment-signature': await signPayment({ key, requirements: req }) },
    )
    expect(r.status).toBe(402)
    expect(((await r.json()) as { reason?: string }).reason).toBe('payer_cooling_down')
  }
  expect((await sql`SELECT COUNT(*)::int AS n FROM payments WHERE payer = ${address.toLowerCase()}`)[0].n).toBe(0)
  expect(await usdcBalance(chain.rpcUrl, address)).toBe(3000n)
  expect(await payeeDelta()).toBe(before)
})

test("an instance killed -9 mid-settlement: another instance's reconciler settles its row, once", async () => {
  const url = `${base(0)}/api/v1/slugify`
  const req = await requirementsAt(url)
  const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
  const before = await payeeDelta()
  proxy.calls.clear()
  // the node mines the transfer at once; every answer that would tell instance 0 so is held back
  for (const m of MINED_ANSWERS) proxy.delayOut.set(m, 60_000)
  const inflight = post(url, { text: 'killed mid-settlement' }, { 'payment-signature': header }).catch((e) => e)
  const nonce = JSON.parse(Buffer.from(header, 'base64').toString()).payload.authorization.nonce.toLowerCase()
  const row = async () =>
    (await sql`SELECT id, state, tx_hash, instance FROM payments WHERE nonce = ${nonce} AND state <> 'released'`)[0] as
      | { id: string; state: string; tx_hash: string | null; instance: string }
      | undefined
  await until(async () => (await payeeDelta()) > before) // mined
  await until(async () => !!(await row())?.tx_hash) // and its hash recorded: the kill lands after the broadcast
  process.kill(servers[0].pid, 'SIGKILL')
  expect(await inflight).toBeInstanceOf(Error)
  proxy.delayOut.clear()
  // i0 never saw its receipt (held by the proxy) and is dead: only another instance's reconciler can finish the row
  expect(await row()).toMatchObject({ instance: 'i0' })
  expect(['settling', 'settled']).toContain((await row())!.state)
  // i1/i2 reconcile every 300 ms; rows of another instance once 3 s passed since their last change
  await until(async () => (await row())?.state === 'settled')
  expect((await payeeDelta()) - before).toBe(BigInt(req.amount))
  expect(await payeeDelta()).toBe(await settledTotal())
  const events =
    await sql`SELECT state, detail FROM payment_events WHERE payment_id = ${(await row())!.id}::bigint AND state = 'settled'`
  expect(events.map((e: { detail: string }) => e.detail)).toEqual(['confirmed by reconciliation'])
  await until(async () => {
    const [a, b] = await Promise.all([stats(1), stats(2)])
    return (
      a.totals.revenue_atomic === (await payeeDelta()).toString() &&
      JSON.stringify(a.totals) === JSON.stringify(b.totals)
    )
  })
  const replay = await post(`${base(1)}/api/v1/slugify`, { text: 'again' }, { 'payment-signature': header })
  expect(replay.status).toBe(402)
}, 60_000)
