/**
 * One fsync'd (synchronous=FULL) commit per paid call: the `settling` row written before the transfer is broadcast.
 * The connection commits with synchronous=NORMAL otherwise (runtime/db/sqlite/connect.ts, runtime/db/sqlite/ledger.ts). Checked on
 * a real SQLite file: by the connection's counter of durable commits through the ledger and through real paid calls
 * (anvil, the official @x402/fetch client), and, where Linux perf may read the syscall tracepoints, by counting the fsync
 * system calls of a real server process during paid calls.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { ResultStore } from '../../runtime/db/sqlite/results'
import { SessionGeneration } from '../../runtime/db/sqlite/admin-state'
import { durableCommits, durably, openDatabase } from '../../runtime/db/sqlite/connect'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { startServerProcess } from '../support/server-process'
import { decodeB64Json, type TestServer } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { signPayment } from '../support/pay'
import { payingFetch } from '../support/paying-fetch'
import { sqliteOf } from '../../runtime/db/open'
import type { Reservation } from '../../runtime/db/store'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'durability-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const syncLevel = (db: ReturnType<typeof openDatabase>) =>
  (db.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous
const NORMAL = 1

const reservation = (nonce: string): Reservation => ({
  payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
  nonce,
  slug: 'slugify',
  tier: 'default',
  amount: '1000',
  network: 'eip155:8453',
  requestId: 'r-' + nonce.slice(-4),
  validBefore: Math.floor(Date.now() / 1000) + 60,
  x402Version: 2,
  payload: { payload: { authorization: { nonce } } },
  requirements: {},
})

describe('durable commits on a SQLite file', () => {
  test('the connection commits NORMAL; durably() commits once with FULL and puts it back to NORMAL', () => {
    const db = openDatabase(join(dir, 'unit.sqlite'))
    expect(syncLevel(db)).toBe(NORMAL)
    db.exec('CREATE TABLE t (x INTEGER)')
    const before = durableCommits(db)
    const out = durably(db, () => {
      db.run('INSERT INTO t VALUES (1)')
      return 'done'
    })
    expect(out).toBe('done')
    expect(durableCommits(db) - before).toBe(1)
    expect(syncLevel(db)).toBe(NORMAL)
    // a failed durable write rolls back, is not counted, and still leaves the connection at NORMAL
    expect(() =>
      durably(db, () => {
        db.run('INSERT INTO t VALUES (2)')
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(db.query('SELECT x FROM t').all()).toEqual([{ x: 1 }])
    expect(durableCommits(db) - before).toBe(1)
    expect(syncLevel(db)).toBe(NORMAL)
    // nested in another transaction the outer commit would decide the level: refused, nothing written
    expect(() => db.transaction(() => durably(db, () => db.run('INSERT INTO t VALUES (3)')))()).toThrow(
      /inside another transaction/,
    )
    expect(db.query('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 })
    expect(syncLevel(db)).toBe(NORMAL)
    db.close()
  })

  test("a paid call's ledger writes: only entering `settling` is durable; a refused or released payment makes none", async () => {
    const db = openDatabase(join(dir, 'ledger.sqlite'))
    const ledger = new Ledger(db)
    const n = () => durableCommits(db)
    const nonce = '0x' + '11'.repeat(32)
    const id = ledger.reserve(reservation(nonce))!
    ledger.transition(id, 'verified')
    expect(n()).toBe(0)
    await ledger.transition(id, 'settling')
    expect(n()).toBe(1)
    ledger.transition(id, 'settling', { tx: '0x' + 'ab'.repeat(32) })
    expect(ledger.settleOnce(id, { tx: '0x' + 'ab'.repeat(32), gasUsed: '50000', effectiveGasPrice: '1000' })).toBe(
      true,
    )
    expect(n()).toBe(1)
    expect(ledger.events(id).map((e) => e.state)).toEqual(['reserved', 'verified', 'settling', 'settling', 'settled'])
    // a payment that never reaches settlement
    const other = ledger.reserve(reservation('0x' + '22'.repeat(32)))!
    ledger.transition(other, 'released', { reason: 'invalid' })
    // outcomes after the broadcast are rebuilt from the chain if lost: not durable
    const third = ledger.reserve(reservation('0x' + '33'.repeat(32)))!
    ledger.transition(third, 'verified')
    await ledger.transition(third, 'settling')
    ledger.transition(third, 'pending', { reason: 'timeout' })
    ledger.transition(third, 'failed', { reason: 'not on chain and expired (reconciled)' })
    expect(n()).toBe(2)
    expect(syncLevel(db)).toBe(NORMAL)
    db.close()
  })

  test('entering `settling` is group-committed: calls of one turn share one fsync, each resolves once its group is durable', async () => {
    const db = openDatabase(join(dir, 'group.sqlite'))
    const ledger = new Ledger(db)
    const n = () => durableCommits(db)
    const ids = Array.from(
      { length: 8 },
      (_, i) => ledger.reserve(reservation(`0x${(40 + i).toString(16).repeat(32)}`))!,
    )
    for (const id of ids) ledger.transition(id, 'verified')
    const state = (id: number) => ledger.events(id).at(-1)?.state
    const waits = ids.map((id) => ledger.transition(id, 'settling'))
    // nothing is written (nor may be broadcast) before the group's fsync'd commit
    expect(n()).toBe(0)
    expect(ids.map(state)).toEqual(ids.map(() => 'verified'))
    let resolved = 0
    for (const w of waits) void Promise.resolve(w).then(() => resolved++)
    await Promise.all(waits)
    expect(resolved).toBe(8)
    expect(n()).toBe(1)
    expect(ids.map(state)).toEqual(ids.map(() => 'settling'))
    // a row that cannot take the write (already settled: terminal) leaves the others' group unharmed
    ledger.settleOnce(ids[0]!, { tx: '0x1' })
    const next = [ledger.transition(ids[0]!, 'settling'), ledger.transition(ids[1]!, 'settling')]
    await Promise.all(next)
    expect(n()).toBe(2)
    expect([state(ids[0]!), state(ids[1]!)]).toEqual(['settled', 'settling'])
    expect(syncLevel(db)).toBe(NORMAL)
    db.close()
  })

  test("transaction hashes told in one turn share one (NORMAL) commit, and a row's later write never jumps ahead of its hash", async () => {
    const path = join(dir, 'hashes.sqlite')
    const db = openDatabase(path)
    const ledger = new Ledger(db)
    // bytes appended to the WAL (no checkpoint in between): each commit appends the pages it changed
    db.exec('PRAGMA wal_autocheckpoint = 0')
    const frames = () => statSync(`${path}-wal`).size
    const ids = Array.from(
      { length: 9 },
      (_, i) => ledger.reserve(reservation(`0x${(60 + i).toString(16).repeat(32)}`))!,
    )
    for (const id of ids) ledger.transition(id, 'verified')
    await Promise.all(ids.map((id) => ledger.transition(id, 'settling')))
    const durable = durableCommits(db)
    const tx = (i: number) => `0x${i.toString(16).padStart(64, '0')}`
    let f = frames()
    await ledger.transition(ids[0]!, 'settling', { tx: tx(0) })
    const one = frames() - f
    f = frames()
    await Promise.all(ids.slice(1).map((id, i) => ledger.transition(id, 'settling', { tx: tx(i + 1) })))
    const eight = frames() - f
    expect(one).toBeGreaterThan(0)
    // eight hashes, the pages of one commit (eight commits would write about eight times one's)
    expect(eight).toBeLessThan(2 * one)
    expect(ids.map((id) => ledger.get(id)!.tx_hash)).toEqual(ids.map((_, i) => tx(i)))
    // nothing about them is fsync'd
    expect(durableCommits(db)).toBe(durable)
    // a hash still queued is written before the row's next write: the row ends `pending`, its events in order
    const id = ledger.reserve(reservation(`0x${'7a'.repeat(32)}`))!
    ledger.transition(id, 'verified')
    await ledger.transition(id, 'settling')
    const hashed = ledger.transition(id, 'settling', { tx: tx(99) })
    ledger.transition(id, 'pending', { reason: 'receipt timeout' })
    await hashed
    expect(ledger.get(id)).toMatchObject({ state: 'pending', tx_hash: tx(99) })
    expect(ledger.events(id).map((e) => e.state)).toEqual(['reserved', 'verified', 'settling', 'settling', 'pending'])
    db.close()
  })

  test('a kept result still buffered is written before the durable `settling` commit (so the fsync covers it)', async () => {
    const db = openDatabase(join(dir, 'results.sqlite'))
    const ledger = new Ledger(db)
    const results = new ResultStore(db, { maxBodyBytes: 10_000, maxTotalBytes: 100_000, flushMs: 3_600_000 })
    const nonce = '0x' + '44'.repeat(32)
    const id = ledger.reserve(reservation(nonce))!
    ledger.transition(id, 'verified')
    const bodies = () => db.query('SELECT body FROM paid_results WHERE payment_id = ?').all(id)
    results.keep(
      { paymentId: id, payer: reservation(nonce).payer, nonce, key: null, requestHash: 'h', expiresAt: 2e9 },
      '{"slug":"kept"}',
    )
    expect(bodies()).toEqual([]) // buffered (the flush timer is an hour away)
    await ledger.transition(id, 'settling')
    expect(bodies()).toEqual([{ body: '{"slug":"kept"}' }])
    expect(durableCommits(db)).toBe(1)
    results.close()
    db.close()
  })
})

test("a console sign-out is fsync'd: a power cut cannot revive the sessions it ended", () => {
  const dir = mkdtempSync(join(tmpdir(), 'durable-gen-'))
  const db = openDatabase(join(dir, 'db.sqlite'))
  const gen = new SessionGeneration(db)
  const before = durableCommits(db)
  expect(gen.next()).toBe(1)
  expect(durableCommits(db)).toBe(before + 1)
  expect(gen.current()).toBe(1)
  expect((db.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous).toBe(1) // back to NORMAL
  db.close()
  rmSync(dir, { recursive: true })
})

describe('real paid calls (anvil, @x402/fetch)', () => {
  let chain: DevChain
  let s: TestServer
  beforeAll(async () => {
    chain = await startDevChain()
    s = await startServerOnChain(chain)
  })
  afterAll(async () => {
    await s?.stop()
    await chain?.stop()
  })

  test('each paid call makes exactly one durable commit; a refused payment makes none; books equal the chain', async () => {
    const db = sqliteOf(s.booted).db
    expect(syncLevel(db)).toBe(NORMAL)
    const pay = payingFetch(chain.payer.privateKey as Hex)
    const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const before = durableCommits(db)
    for (let i = 0; i < 3; i++) {
      const r = await pay(s.url + '/api/v1/slugify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `Durable call ${i}` }),
      })
      expect(r.status).toBe(200)
      expect(((await r.json()) as { slug: string }).slug).toBe(`durable-call-${i}`)
      expect(decodeB64Json(r.headers.get('payment-response')).success).toBe(true)
      expect(durableCommits(db) - before).toBe(i + 1)
    }
    // a payment whose signature does not cover what it claims: refused at verification, released, nothing durable
    const req = decodeB64Json((await s.post('/api/v1/slugify', {})).headers.get('payment-required')).accepts[0]
    const forged = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req, tamper: { value: '1' } })
    const refused = await s.post('/api/v1/slugify', { text: 'forged' }, { 'payment-signature': forged })
    expect(refused.status).toBe(402)
    expect(durableCommits(db) - before).toBe(3)
    expect(syncLevel(db)).toBe(NORMAL)
    const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore
    expect(delta).toBe(3000n)
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(3000n)
  }, 60_000)
})

/**
 * Linux perf, when installed and allowed to read the syscall tracepoints: counts a process's fsync and fdatasync
 * system calls without stopping it (strace's ptrace stops slow a Bun server down by orders of magnitude).
 */
const perf = (() => {
  const which = Bun.spawnSync(['sh', '-c', 'command -v perf']).stdout.toString().trim()
  if (!which) return null
  const probe = Bun.spawnSync([which, 'stat', '-x,', '-e', 'syscalls:sys_enter_fsync', 'true'])
  return probe.exitCode === 0 ? which : null
})()

describe.skipIf(!perf)('fsync system calls of a real server process (perf)', () => {
  let chain: DevChain
  beforeAll(async () => {
    chain = await startDevChain()
  })
  afterAll(async () => {
    await chain?.stop()
  })

  test('paid calls through a real server process: exactly one fsync per paid call', async () => {
    const child = await startServerProcess({
      DATABASE_PATH: join(dir, 'counted.sqlite'),
      RPC_URL: chain.rpcUrl,
      SETTLER_PRIVATE_KEY: chain.settler.privateKey,
      PAY_TO: chain.payee.address,
    })
    const out = join(dir, 'perf.txt')
    let counter: ReturnType<typeof Bun.spawn> | undefined
    try {
      const pay = payingFetch(chain.payer.privateKey as Hex)
      const url = `http://127.0.0.1:${child.port}/api/v1/slugify`
      const call = (text: string) =>
        pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) })
      // warm up (statements prepared, settler lane started) before counting
      expect((await call('warm up')).status).toBe(200)
      // every 100 ms perf writes one line per event once attached: the first lines say it is counting
      counter = Bun.spawn(
        [perf!, 'stat', '-x,', '-I', '100', '-e', 'syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync'].concat([
          '-p',
          String(child.pid),
          '-o',
          out,
        ]),
        { stdout: 'ignore', stderr: 'ignore' },
      )
      const lines = () => {
        try {
          return readFileSync(out, 'utf8')
            .split('\n')
            .filter((l) => /syscalls:sys_enter_f(data)?sync/.test(l))
        } catch {
          return []
        }
      }
      const t0 = Date.now()
      while (lines().length < 2 && Date.now() - t0 < 30_000) await Bun.sleep(20)
      expect(lines().length).toBeGreaterThanOrEqual(2)
      const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
      for (let i = 0; i < 4; i++) expect((await call(`counted ${i}`)).status).toBe(200)
      expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(4000n)
      counter.kill('SIGINT') // perf prints the last interval and exits
      await counter.exited
      // each line: time,count,unit,event,... ("<not counted>" while the process did not run)
      const fsyncs = lines().reduce((n, l) => n + (Number(l.split(',')[1]) || 0), 0)
      expect(fsyncs).toBe(4)
    } finally {
      counter?.kill()
      await child.stop()
    }
  }, 120_000)
})
