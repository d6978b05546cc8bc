/**
 * Crash and restart, for real: the server as its own process (`runtime/index.ts`) on one SQLite file, its chain
 * behind an RPC fault proxy (test/support/rpc-faults.ts), killed with SIGKILL at a chosen point of a paid call and
 * started again on the same file, whose boot reconciliation squares the ledger with the chain before it listens.
 * `crashRig` registers the file's beforeAll/afterAll: the chain, the proxy and a temp dir up before the tests; a
 * server a failed test left running, the proxy, the chain and the dir gone after. The kill points are the ones the
 * money rules are about: the transfer mined but the server never told (`killAfterMined`), the transfer on its way
 * and landing after the kill (`killWhileSending`), the transfer never reaching the node (`killBeforeNode`).
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Child } from '../../bench/lib'
import { type DevChain, startDevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { MINED_ANSWERS, SEND_METHODS, startFaultProxy, type FaultProxy } from './rpc-faults'
import { type PaymentRow, paymentRows, startServerProcess } from './server-process'
import { until } from './until'

export interface CrashRig<C> {
  /** The chain, the proxy in front of it and the database path: set by the rig's beforeAll. */
  readonly chain: C
  readonly proxy: FaultProxy
  readonly dbPath: string
  /** A server process on the rig's database, listening (its boot reconciliation done). */
  start(): Promise<Child>
  /** SIGKILL, then wait until its port refuses connections. */
  kill(s: Child): Promise<void>
  /** The ledger's payment rows, oldest first, read from the file (the server may be running, or dead). */
  rows(): PaymentRow[]
  /** The sum of the settled rows' amounts. */
  settled(): bigint
  /** The payee's token balance on the chain now. */
  payee(): Promise<bigint>
  /** GET `path` (default /stats/today) of the server `s`, as JSON. */
  stats(s: Child, path?: string): Promise<any>
  /**
   * The books after a restart: /stats revenue on the rig's chain (every scheme, all time) = the ledger's settled rows
   * (the server's other chain is never reached, so every row is on the rig's) = the payee's on-chain delta since the
   * rig started. Returns that amount.
   */
  expectBooks(s: Child): Promise<bigint>
  /**
   * Sends `call` with every answer that would tell the server its transfer was mined held back (the node mines it at
   * once; EVM); once `moved()` sees the money on chain and the last row has its hash, kills `s`. The caller gets no
   * answer.
   */
  killAfterMined(s: Child, call: () => Promise<Response>, moved: () => Promise<boolean>): Promise<void>
  /**
   * Sends `call` with the transfer held 3 s on its way to the node; kills `s` once the last row is `settling` and the
   * transfer was sent, then waits for it to land anyway (`landed()`). The caller gets no answer. Returns the last row
   * as it was when the kill was decided (the transfer sent, not yet landed).
   */
  killWhileSending(s: Child, call: () => Promise<Response>, landed: () => Promise<boolean>): Promise<PaymentRow>
  /**
   * Sends `call` with the transfer held on its way to the node and then failed (a broken gateway, 502); kills `s`
   * once it was sent. Nothing reached the node; the proxy is clear again when this returns.
   */
  killBeforeNode(s: Child, call: () => Promise<Response>): Promise<void>
}

export function crashRig<C extends { stop(): Promise<void> }>(o: {
  /** The temp dir's prefix. */
  name: string
  chain: () => Promise<C>
  /** The URL the proxy forwards to. */
  rpcUrl: (chain: C) => string
  /** The server's env beside DATABASE_PATH (it reaches the chain through `rig.proxy.url` where faults matter). */
  env: (rig: CrashRig<C>) => Record<string, string>
  payee: (chain: C) => Promise<bigint>
  /** The JSON-RPC methods that send a transaction (default EVM's). */
  sendMethods?: string[]
  /** The chain's CAIP-2 network when it is not the server's primary one (/stats `totals` count the primary only). */
  network?: string
}): CrashRig<C> {
  const sendMethods = o.sendMethods ?? SEND_METHODS
  const live = new Set<Child>()
  let chain: C
  let proxy: FaultProxy
  let dir: string
  let payeeAtStart = 0n
  beforeAll(async () => {
    chain = await o.chain()
    proxy = startFaultProxy(o.rpcUrl(chain))
    dir = mkdtempSync(join(tmpdir(), `${o.name}-`))
    payeeAtStart = await o.payee(chain)
  })
  afterAll(async () => {
    for (const s of live) await s.stop().catch(() => {})
    proxy?.stop()
    await chain?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })
  const sent = () => sendMethods.reduce((n, m) => n + (proxy.calls.get(m) ?? 0), 0)
  const rig: CrashRig<C> = {
    get chain() {
      return chain
    },
    get proxy() {
      return proxy
    },
    get dbPath() {
      return join(dir, 'db.sqlite')
    },
    async start() {
      const c = await startServerProcess({ ...o.env(rig), DATABASE_PATH: rig.dbPath })
      const s: Child = {
        ...c,
        async stop() {
          live.delete(s)
          await c.stop()
        },
      }
      live.add(s)
      return s
    },
    async kill(s) {
      process.kill(s.pid, 'SIGKILL')
      live.delete(s)
      const refused = () =>
        fetch(`http://127.0.0.1:${s.port}/health`).then(
          () => false,
          () => true,
        )
      await until(refused, 10_000, 'the killed server gone')
    },
    rows: () => paymentRows(rig.dbPath),
    settled: () =>
      rig
        .rows()
        .filter((r) => r.state === 'settled')
        .reduce((n, r) => n + BigInt(r.amount), 0n),
    payee: () => o.payee(chain),
    stats: async (s, path = '/stats/today') => (await fetch(`http://127.0.0.1:${s.port}${path}`)).json(),
    async expectBooks(s) {
      const delta = (await rig.payee()) - payeeAtStart
      const stats = await rig.stats(s, '/stats')
      const revenue = o.network
        ? stats.networks.find((n: { network: string }) => n.network === o.network)?.revenue_atomic
        : stats.totals.revenue_atomic
      expect(BigInt(revenue ?? 0)).toBe(delta)
      expect(rig.settled()).toBe(delta)
      return delta
    },
    async killAfterMined(s, call, moved) {
      proxy.calls.clear()
      for (const m of MINED_ANSWERS) proxy.delayOut.set(m, 10_000)
      const inflight = call().catch((e) => e)
      await until(moved, 10_000, 'the transfer mined')
      // the hash is recorded once the send was handed to the node: wait for it, so the kill lands after the broadcast
      await until(() => !!rig.rows().at(-1)?.tx_hash, 30_000, 'the tx hash recorded')
      await rig.kill(s)
      expect(await inflight).toBeInstanceOf(Error)
      proxy.delayOut.clear()
    },
    async killWhileSending(s, call, landed) {
      for (const m of sendMethods) proxy.delayIn.set(m, 3_000)
      proxy.calls.clear()
      const inflight = call().catch((e) => e)
      // the `settling` row is written, then the transfer is signed and sent: kill once the send is on its way
      await until(() => rig.rows().at(-1)?.state === 'settling' && sent() >= 1, 20_000, 'the settling row and the send')
      const sending = rig.rows().at(-1)!
      await rig.kill(s)
      expect(await inflight).toBeInstanceOf(Error) // no answer: the caller never got the result
      // the transfer lands anyway (it was broadcast before the kill)
      await until(landed, 20_000, 'the transfer landing after the kill')
      proxy.delayIn.clear()
      return sending
    },
    async killBeforeNode(s, call) {
      proxy.calls.clear()
      for (const m of sendMethods) {
        proxy.delayIn.set(m, 10_000)
        proxy.faults.set(m, { http: 502, times: 100 })
      }
      const inflight = call().catch((e) => e)
      await until(() => sent() >= 1, 30_000, 'the send')
      await rig.kill(s)
      await inflight
      proxy.delayIn.clear()
      proxy.faults.clear()
    },
  }
  return rig
}

/**
 * crashRig on the Base dev chain (anvil, Circle's USDC): the server settles through the proxy with the chain's
 * settler, paid to its payee; `env` adds to (or overrides) that.
 */
export const evmCrashRig = (name: string, env: (rig: CrashRig<DevChain>) => Record<string, string> = () => ({})) =>
  crashRig<DevChain>({
    name,
    chain: startDevChain,
    rpcUrl: (chain) => chain.rpcUrl,
    payee: (chain) => usdcBalance(chain.rpcUrl, chain.payee.address),
    env: (rig) => ({
      RPC_URL: rig.proxy.url,
      SETTLER_PRIVATE_KEY: rig.chain.settler.privateKey,
      PAY_TO: rig.chain.payee.address,
      ...env(rig),
    }),
  })
