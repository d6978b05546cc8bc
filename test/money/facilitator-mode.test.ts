/**
 * Facilitator mode (FACILITATOR_URL) is as safe as self-facilitation (issue #24 items 2, 4 and one of 6), on a real
 * chain (anvil, Circle's FiatTokenV2_2) through the official x402 facilitator, behind a small proxy that can hold
 * /verify or bend the /settle answer after the transfer was (or was not) sent:
 * - a payer funded for one call sends 20 authorizations at once: one handler run, with RPC_URL (balance hold) and
 *   without it (one unsettled paid call per payer, others 429 BUSY + Retry-After);
 * - a settle answer that is not a clean success is pending, reconciled from the chain by proof, and the same payment
 *   then collects the kept result; with RPC_URL a claimed success with a hash of nothing is neither served nor
 *   counted, and a success:false naming a mined transfer is proven and served;
 * - an identical retry while the first call still verifies is told `settlement_pending`, never
 *   `authorization_already_used`.
 * Every server's books end exact: /stats revenue = ledger settled total = the payee's on-chain delta.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { usdcBalance } from '../../runtime/chain/usdc'
import { loadConfig } from '../../runtime/config'
import { createLogger } from '../../runtime/log'
import { reconcile } from '../../runtime/pay/schemes/exact/reconcile'
import { remoteFacilitators } from '../../runtime/pay/facilitator/remote-setup'
import { startOfficialFacilitator, type OfficialFacilitator } from '../support/official-facilitator'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { fundedPayer, moveAway, startServerOnChain, stopAndTally } from '../support/on-chain'
import { signPayment } from '../support/pay'
import { payingFetch } from '../support/paying-fetch'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import { decodeB64Json, post, requirementsAt, type TestServer } from '../support/server'
import { until } from '../support/until'
import { counted, gatedEntry, withMoneyServices } from './services'
import { sqliteOf } from '../../runtime/db/open'

type SettleMode = 'pass' | 'http-500-after-transfer' | 'false-naming-mined-transfer' | 'success-with-fake-hash'

let chain: DevChain
let pg: LocalPostgres
let dbs = 0
let fac: OfficialFacilitator
let proxy: ReturnType<typeof Bun.serve>
const servers: TestServer[] = []
let payeeBefore = 0n
let moved = 0n

/** What the proxy in front of the official facilitator does. */
const bend = {
  settle: 'pass' as SettleMode,
  verifies: 0,
  settles: 0,
  /** While set, /verify waits for it before going to the facilitator. */
  holdVerify: null as Promise<void> | null,
}

const FAKE_HASH = `0x${'ab'.repeat(32)}`

beforeAll(async () => {
  ;[chain, pg] = await Promise.all([startDevChain(), testPostgres()])
  fac = startOfficialFacilitator(chain.rpcUrl, chain.settler.privateKey as Hex)
  proxy = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname
      const body = req.method === 'POST' ? await req.text() : undefined
      const forward = async () => {
        const res = await fetch(fac.url + path, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          body,
        })
        return { status: res.status, json: (await res.json()) as Record<string, unknown> }
      }
      if (path === '/verify') {
        bend.verifies++
        if (bend.holdVerify) await bend.holdVerify
      }
      if (path !== '/settle') {
        const r = await forward()
        return Response.json(r.json, { status: r.status })
      }
      bend.settles++
      switch (bend.settle) {
        case 'success-with-fake-hash':
          return Response.json({ success: true, transaction: FAKE_HASH, network: 'eip155:8453' })
        case 'http-500-after-transfer': {
          const r = await forward()
          expect(r.json.success).toBe(true)
          return Response.json({ success: false }, { status: 500 })
        }
        case 'false-naming-mined-transfer': {
          const r = await forward()
          expect(r.json.success).toBe(true)
          return Response.json({
            success: false,
            errorReason: 'unexpected_settle_error',
            transaction: r.json.transaction,
            network: 'eip155:8453',
          })
        }
        default: {
          const r = await forward()
          return Response.json(r.json, { status: r.status })
        }
      }
    },
  })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
}, 120_000)

afterAll(async () => {
  const { delta, stats, ledger } = await stopAndTally(chain, servers, payeeBefore)
  proxy?.stop(true)
  fac?.stop()
  await Promise.all([chain?.stop(), pg?.stop()])
  expect(delta).toBe(moved)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
}, 60_000)

beforeEach(() => {
  bend.settle = 'pass'
  bend.holdVerify = null
  counted.runs = 0
})

const gated = gatedEntry()

type Engine = 'sqlite' | 'postgres'

/** A server paid through the proxy (FACILITATOR_URL), with or without RPC_URL, as boot builds it. */
async function facilitatorServer(withRpc: boolean, engine: Engine = 'sqlite', entry = gated.entry) {
  const env: Record<string, string> = {
    PAY_TO: chain.payee.address,
    FACILITATOR_URL: `http://127.0.0.1:${proxy.port}`,
    INVALID_PAYMENT_LIMIT: '0',
    ...(withRpc ? { RPC_URL: chain.rpcUrl } : {}),
    ...(engine === 'postgres' ? { DATABASE_URL: await pg.createDatabase(`facilitator${++dbs}`) } : {}),
  }
  const { config, problems } = loadConfig(env)
  expect(problems).toEqual([])
  const facilitator = remoteFacilitators(config, createLogger('silent'), { settleTimeoutMs: 10_000 })
  expect(!!facilitator.balance).toBe(withRpc)
  const s = await startServerOnChain(chain, { entries: withMoneyServices(entry), facilitator, env })
  servers.push(s)
  expect(s.booted.storage.kind).toBe(engine)
  return { s, facilitator }
}

const callCounted = (pay: ReturnType<typeof payingFetch>, s: TestServer) =>
  pay(`${s.url}/api/v1/test-counted`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'x' }),
  })

const payOnce = async (s: TestServer, key: Hex, slug = 'test-counted', body: unknown = { code: 'x' }) => {
  const header = await signPayment({ key, requirements: await requirementsAt(`${s.url}/api/v1/${slug}`) })
  return { header, send: () => post(`${s.url}/api/v1/${slug}`, body, { 'payment-signature': header }) }
}

const reasonOf = async (r: Response) => ((await r.json()) as { reason?: string }).reason

describe.each([
  [true, 'sqlite'],
  [false, 'sqlite'],
  [true, 'postgres'],
  [false, 'postgres'],
] as const)('RPC_URL beside the facilitator: %p, %s', (withRpc, engine) => {
  test('a payer funded for one call sends 20 authorizations at once (official client): one handler run, one transfer', async () => {
    const { s } = await facilitatorServer(withRpc, engine)
    const payer = await fundedPayer(chain, 1000n)
    const pay = payingFetch(payer.key)
    const answers = await Promise.all(Array.from({ length: 20 }, () => callCounted(pay, s)))
    const codes = answers.map((r) => r.status).sort()
    expect(codes.filter((c) => c === 200).length).toBe(1)
    // with RPC_URL: refused by the balance hold or, once the one transfer landed, by the facilitator's verification;
    // without: 429 while the first is unsettled (or its settlement is newer than the verification), or the same 402
    for (const c of codes) expect(withRpc ? [200, 402] : [200, 402, 429]).toContain(c)
    for (const r of answers.filter((a) => a.status === 429)) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
      const body = (await r.json()) as { error: { code: string }; request_id: string }
      expect(body.error.code).toBe('BUSY')
      expect(body.request_id).toMatch(/^req_/)
    }
    expect(counted.runs).toBe(1)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
    expect(await s.booted.storage.ledger.settledTotal()).toBe(1000n)
    const open = await s.booted.storage.ledger.byState(['reserved', 'verified', 'settling', 'pending'])
    expect(open.filter((r) => r.payer === payer.address.toLowerCase())).toEqual([])
    moved += 1000n
  }, 60_000)

  test('an identical retry while the first call still verifies gets settlement_pending, then collects the result', async () => {
    const { s } = await facilitatorServer(withRpc, engine)
    const payer = await fundedPayer(chain, 1000n)
    const { send } = await payOnce(s, payer.key)
    let release!: () => void
    bend.holdVerify = new Promise<void>((r) => (release = r))
    const verifiesBefore = bend.verifies
    const first = send()
    await until(() => bend.verifies > verifiesBefore, 30_000, 'the first call verifying')
    const retry = await send()
    expect(retry.status).toBe(402)
    expect(retry.headers.get('retry-after')).toBeTruthy()
    expect(await reasonOf(retry)).toBe('settlement_pending')
    release()
    const r = await first
    expect(r.status).toBe(200)
    const body = await r.text()
    // the same payment for the same request collects the kept result: no second run, no second transfer
    const again = await send()
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(body)
    expect(counted.runs).toBe(1)
    expect(bend.verifies - verifiesBefore).toBe(1)
    moved += 1000n
  }, 60_000)
})

describe('one unsettled paid call per payer without balance reads (no RPC_URL)', () => {
  test('a second payment while the first runs: 429 BUSY with Retry-After, nothing charged; after it settles, served', async () => {
    const { s } = await facilitatorServer(false)
    const payer = await fundedPayer(chain, 2000n)
    const first = (await payOnce(s, payer.key, 'test-gated')).send()
    await gated.state.started
    const settlesBefore = bend.settles
    const second = await (await payOnce(s, payer.key)).send()
    expect(second.status).toBe(429)
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('BUSY')
    gated.state.open()
    expect((await first).status).toBe(200)
    expect(bend.settles - settlesBefore).toBe(1)
    expect(counted.runs).toBe(0)
    // once the first has settled, the payer's next payment goes through
    expect((await (await payOnce(s, payer.key)).send()).status).toBe(200)
    expect(counted.runs).toBe(1)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
    moved += 2000n
  }, 60_000)
})

describe('settle answers that are not a clean success (RPC_URL beside the facilitator)', () => {
  test('HTTP 500 {"success":false} after the transfer was mined: pending, reconciled by proof, then collected; the payer is not cooled down', async () => {
    const { s, facilitator } = await facilitatorServer(true)
    const payer = await fundedPayer(chain, 2000n)
    const payeeAt = await usdcBalance(chain.rpcUrl, chain.payee.address)
    bend.settle = 'http-500-after-transfer'
    const { send } = await payOnce(s, payer.key)
    const r = await send()
    expect(r.status).toBe(402)
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    const refused = (await r.json()) as { reason: string }
    expect(refused.reason).toBe('settlement_pending')
    expect(JSON.stringify(refused)).not.toContain('"runs"')
    expect(sqliteOf(s.booted).ledger.byState(['pending']).length).toBe(1)
    expect(sqliteOf(s.booted).ledger.byState(['failed']).length).toBe(0)
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(0n)
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeAt).toBe(1000n)
    // the same payment again, still pending: told to wait (never authorization_already_used)
    const early = await send()
    expect(early.status).toBe(402)
    expect(await reasonOf(early)).toBe('settlement_pending')
    // reconciled from the chain (receipt + AuthorizationUsed/Transfer logs): settled once
    bend.settle = 'pass'
    expect(await reconcile(s.booted.storage.ledger, facilitator, s.booted.log, 0)).toMatchObject({
      settled: 1,
      failed: 0,
    })
    expect(await reconcile(s.booted.storage.ledger, facilitator, s.booted.log, 0)).toMatchObject({ settled: 0 })
    const collected = await send()
    expect(collected.status).toBe(200)
    expect(await collected.json()).toEqual({ runs: 1 })
    const receipt = decodeB64Json(collected.headers.get('payment-response'))
    expect(receipt).toMatchObject({ success: true, network: 'eip155:8453' })
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(counted.runs).toBe(1)
    // not cooled down: its next payment is served
    expect((await (await payOnce(s, payer.key)).send()).status).toBe(200)
    expect(counted.runs).toBe(2)
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(2000n)
    moved += 2000n
  }, 60_000)

  test('200 success:false naming a mined transfer: proven on chain, served and counted once', async () => {
    const { s } = await facilitatorServer(true)
    const payer = await fundedPayer(chain, 1000n)
    bend.settle = 'false-naming-mined-transfer'
    const r = await (await payOnce(s, payer.key)).send()
    expect(r.status).toBe(200)
    const receipt = decodeB64Json(r.headers.get('payment-response'))
    expect(receipt).toMatchObject({ success: true })
    expect(sqliteOf(s.booted).ledger.byState(['settled'])[0].tx_hash).toBe(receipt.transaction)
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(1000n)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
    moved += 1000n
  }, 60_000)

  test('success:true with the hash of nothing: not served, not counted, pending (chain +0)', async () => {
    const { s, facilitator } = await facilitatorServer(true)
    const payer = await fundedPayer(chain, 1000n)
    const payeeAt = await usdcBalance(chain.rpcUrl, chain.payee.address)
    bend.settle = 'success-with-fake-hash'
    const r = await (await payOnce(s, payer.key)).send()
    expect(r.status).toBe(402)
    const body = (await r.json()) as { reason: string }
    expect(body.reason).toBe('settlement_pending')
    expect(JSON.stringify(body)).not.toContain('"runs"')
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(0n)
    const [row] = sqliteOf(s.booted).ledger.byState(['pending'])
    expect(row.tx_hash).toBe(FAKE_HASH)
    // the chain has nothing: reconciliation does not count it either (failed once the authorization expires)
    expect(await reconcile(s.booted.storage.ledger, facilitator, s.booted.log, 0)).toMatchObject({ settled: 0 })
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeAt)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(1000n)
    const stats = (await (await fetch(`${s.url}/stats`)).json()) as { totals: { revenue_atomic: string } }
    expect(stats.totals.revenue_atomic).toBe('0')
  }, 60_000)
})

describe.each([true, false])('a settlement refused after the funds moved away (RPC_URL: %p)', (withRpc) => {
  test('the handler ran once, the result is withheld, the payer is cooled down before its next verification', async () => {
    const mid = gatedEntry()
    const { s } = await facilitatorServer(withRpc, 'sqlite', mid.entry)
    const payer = await fundedPayer(chain, 1000n)
    const first = (await payOnce(s, payer.key, 'test-gated')).send()
    await mid.state.started
    await moveAway(chain, payer.key, 1000n) // the payer empties its wallet while its handler runs
    mid.state.open()
    const r = await first
    expect(r.status).toBe(402)
    expect(JSON.stringify(await r.json())).not.toContain('"runs"')
    // with RPC_URL the refusal is not proof: pending until the chain says (failed once the authorization expires);
    // without it the facilitator's clean refusal is taken: failed
    expect(sqliteOf(s.booted).ledger.byState([withRpc ? 'pending' : 'failed']).length).toBe(1)
    await fundPayer(chain, payer.address, 1000n)
    const verifiesBefore = bend.verifies
    const again = await (await payOnce(s, payer.key, 'test-gated')).send()
    expect(again.status).toBe(402)
    expect(await reasonOf(again)).toBe('payer_cooling_down')
    expect(bend.verifies).toBe(verifiesBefore)
    expect(mid.state.runs).toBe(1)
    expect(await s.booted.storage.ledger.settledTotal()).toBe(0n)
  }, 60_000)
})
