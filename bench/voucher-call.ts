/**
 * The server's CPU per voucher-paid call alone (issue #38): x402 `batch-settlement`, each call the unpaid 402 and the
 * voucher-paid repeat, as the official client sends them, against the real server (bench/servers/app.ts, a child
 * process self-settling on the dev chain, SQLite file). Unlike bench/channels.ts, the caller's side is cheap: each
 * channel is opened by the official client (its deposit, before any window), then its vouchers are signed ahead of the
 * windows (native libsecp256k1) into the very header the official client sends; during a window this process only
 * sends the two requests of each call, so the server gets the machine. CPU per call = the server process's utime +
 * stime over the window (/proc) ÷ calls, also by thread (main, the handler workers, the JIT, the GC, the rest), the main
 * thread's sleeps per call (voluntary context switches: each one a wake-up, which costs this VM ~50-150 µs of the
 * thread's CPU whatever runs after it: bench/voucher-parts.ts), and the main thread's CPU
 * profile over the window alone (`--profile`: bench/servers/window-prof.ts, summarized by bench/profile-summary.ts).
 * `--ref <commit>` (repeatable): the same server from that commit's tree (`git archive`), windows interleaved
 * round by round with this tree's, so the load weighs on both.
 * Not a test: `bun bench/voucher-call.ts [--rate 300] [--seconds 8] [--rounds 3] [--channels 64] [--profile]
 * [--ref <commit> ...]`; `--rate 0`: closed loop, `--channels` calls in flight (saturation).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain } from '../runtime/chain/devchain'
import { setEthBalance } from '../runtime/chain/usdc'
import { signDigestNative } from '../runtime/pay/fast-recover'
import { voucherDigest } from '../runtime/pay/schemes/batch-settlement/voucher'
import { clientFor, fundPayers, NETWORK } from '../test/support/channels'
import { machine, startChild, type Child } from './lib'
import { summarize } from './profile-summary'

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1]! : d
}
const rate = Number(arg('rate', '300'))
const seconds = Number(arg('seconds', '8'))
const rounds = Number(arg('rounds', '3'))
const channels = Number(arg('channels', '64'))
const profile = process.argv.includes('--profile')
const refs = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--ref' ? [a] : []))
const root = resolve(import.meta.dir, '..')
const BODY = JSON.stringify({ text: 'benchmark', algo: 'sha256' })
const CHAIN_ID = 8453

/** The main thread's system time alone (the kernel's side: sockets, fsync, waking up), beside its total. */
const MAIN_SYS = 'main (system)'
/** CPU ticks (1/100 s) of a process and of each of its threads by name (and MAIN_SYS). */
function threads(pid: number): Map<string, number> {
  const out = new Map<string, number>()
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    let s: string
    try {
      s = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8')
    } catch {
      continue // the thread ended
    }
    const name = t === String(pid) ? 'main' : s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'))
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
    out.set(name, (out.get(name) ?? 0) + Number(f[11]) + Number(f[12]))
    if (name === 'main') out.set(MAIN_SYS, Number(f[12]))
  }
  return out
}
/** How many times the main thread went to sleep (and so woke again): its voluntary context switches. */
const wakeups = (pid: number) =>
  Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'))?.[1] ?? 0)

const procTicks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(f[11]) + Number(f[12])
}

interface Channel {
  /** The PAYMENT-SIGNATURE of each call to come, in order (cumulative vouchers). */
  headers: string[]
  next: number
}

interface Server {
  name: string
  child: Child
  url: string
  channels: Channel[]
  profDir: string
  results: Array<{
    calls: number
    secs: number
    cpuMs: number
    by: Map<string, number>
    bad: string
    lat: number[]
    wakeups: number
  }>
  profiles: string[]
}

const chain = await startDevChain()
const settlerKeys = [generatePrivateKey()]
await setEthBalance(chain.rpcUrl, privateKeyToAccount(settlerKeys[0]!).address, 10n ** 20n)
const work = mkdtempSync(join(tmpdir(), 'bench-voucher-'))
const trees: Array<{ name: string; dir: string }> = [{ name: 'this tree', dir: root }]
for (const ref of refs) {
  const dir = join(work, `tree-${ref}`)
  const x = Bun.spawnSync(['sh', '-c', `mkdir -p '${dir}' && git archive '${ref}' | tar -x -C '${dir}'`], { cwd: root })
  if (x.exitCode !== 0) throw new Error(`git archive ${ref}: ${x.stderr}`)
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  trees.push({ name: ref, dir })
}

const perChannel = Math.ceil(((rate || 1000) * seconds * rounds * 1.2) / channels) + 24

/** Starts a server from `tree`, opens `channels` channels with the official client, signs their vouchers ahead. */
async function startServer(tree: { name: string; dir: string }, i: number): Promise<Server> {
  const profDir = join(arg('profile-dir', work), `prof-${i}`)
  const env = {
    RPC_URL: chain.rpcUrl,
    SETTLER_PRIVATE_KEYS: settlerKeys.join(','),
    PAY_TO: chain.payee.address,
    DATABASE_PATH: join(work, `db-${i}.sqlite`),
    BENCH_CLOSE_ON_TERM: '1',
    WINDOW_PROF_DIR: profDir,
  }
  Bun.spawnSync(['mkdir', '-p', profDir])
  const argv = [process.execPath, '--preload', join(root, 'bench/servers/window-prof.ts'), 'bench/servers/app.ts']
  const child = await startChild(argv, env, 60_000, tree.dir)
  const url = `http://127.0.0.1:${child.port}/api/v1/hash-digest`
  const keys = Array.from({ length: channels }, () => generatePrivateKey())
  await fundPayers(chain, keys, 100_000_000n)
  const opened = await Promise.all(
    keys.map(async (key) => {
      // The official client: its deposit, then one voucher call, whose header is the template of the ones to come.
      const sent: string[] = []
      const capture = (input: RequestInfo | URL, init?: RequestInit) => {
        const req = new Request(input, init)
        const h = req.headers.get('payment-signature')
        if (h) sent.push(h)
        return fetch(req)
      }
      const pay = wrapFetchWithPayment(
        capture as typeof fetch,
        new x402Client().register(NETWORK, clientFor(chain.rpcUrl, key)),
      )
      let charged = 0n
      for (let k = 0; k < 2; k++) {
        const r = await pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY })
        if (r.status !== 200) throw new Error(`${tree.name}: opening a channel answered ${r.status}: ${await r.text()}`)
        await r.arrayBuffer()
        charged = BigInt(
          (
            decodePaymentResponseHeader(r.headers.get('payment-response')!).extra as {
              channelState: { chargedCumulativeAmount: string }
            }
          ).channelState.chargedCumulativeAmount,
        )
      }
      const template = JSON.parse(Buffer.from(sent.at(-1)!, 'base64').toString()) as {
        accepted: { amount: string }
        payload: { type: string; voucher: { channelId: Hex; maxClaimableAmount: string; signature: Hex } }
      }
      const price = BigInt(template.accepted.amount)
      const headers: string[] = []
      for (let n = 1; n <= perChannel; n++) {
        const max = charged + price * BigInt(n)
        const s = signDigestNative(voucherDigest(template.payload.voucher.channelId, max, CHAIN_ID), key)!
        const signature = `${s.r}${s.s.slice(2)}${s.yParity ? '1c' : '1b'}` as Hex
        template.payload.voucher = { ...template.payload.voucher, maxClaimableAmount: String(max), signature }
        headers.push(Buffer.from(JSON.stringify(template)).toString('base64'))
      }
      return { headers, next: 0 }
    }),
  )
  return { name: tree.name, child, url, channels: opened, profDir, results: [], profiles: [] }
}

/** One call: the unpaid 402, then the voucher-paid repeat; the status of each. */
async function call(s: Server, c: Channel): Promise<string> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }
  const r1 = await fetch(s.url, init)
  await r1.arrayBuffer()
  const h = c.headers[c.next++]
  if (!h) throw new Error('out of signed vouchers: raise the margin')
  const r2 = await fetch(s.url, { ...init, headers: { ...init.headers, 'payment-signature': h } })
  await r2.arrayBuffer()
  return r1.status === 402 && r2.status === 200 ? '' : `${r1.status}/${r2.status}`
}

/** A window: open loop at `rate` (each channel every channels/rate s from a random phase) or closed loop. */
async function window(s: Server): Promise<void> {
  const pid = s.child.pid
  if (profile) process.kill(pid, 'SIGUSR2')
  // For an outside profiler (perf, strace): the server's pid in this file while a window runs.
  if (process.env.BENCH_WINDOW_FILE) writeFileSync(process.env.BENCH_WINDOW_FILE, `${pid}\n`)
  const by0 = threads(pid)
  const wake0 = wakeups(pid)
  const t0 = performance.now()
  const cpu0 = procTicks(pid)
  const end = t0 + seconds * 1000
  const period = rate ? (channels / rate) * 1000 : 0
  const lat: number[] = []
  const bad = new Map<string, number>()
  let calls = 0
  await Promise.all(
    s.channels.map(async (c) => {
      let next = period ? t0 + Math.random() * period : 0
      while ((period ? next : performance.now()) < end) {
        if (period) {
          const wait = next - performance.now()
          if (wait > 0) await Bun.sleep(wait)
        }
        const start = period ? next : performance.now()
        next += period
        const why = await call(s, c)
        lat.push(performance.now() - start)
        calls++
        if (why) bad.set(why, (bad.get(why) ?? 0) + 1)
      }
    }),
  )
  const cpuMs = (procTicks(pid) - cpu0) * 10
  if (process.env.BENCH_WINDOW_FILE) rmSync(process.env.BENCH_WINDOW_FILE, { force: true })
  const secs = (performance.now() - t0) / 1000
  const by1 = threads(pid)
  const woke = wakeups(pid) - wake0
  const by = new Map<string, number>()
  for (const [k, v] of by1) by.set(k, (v - (by0.get(k) ?? 0)) * 10)
  if (profile) {
    const n = s.profiles.length
    const file = join(s.profDir, `window-${pid}-${n}.cpuprofile`)
    process.kill(pid, 'SIGUSR2')
    for (let i = 0; i < 200; i++) {
      try {
        readFileSync(file)
        break
      } catch {
        await Bun.sleep(50)
      }
    }
    s.profiles.push(file)
  }
  s.results.push({ calls, secs, cpuMs, by, bad: [...bad].map(([k, n]) => `${n}× ${k}`).join(', '), lat, wakeups: woke })
}

/** Bun's threads by name: the JIT's compilers, the garbage collector's helpers (the handler pool's workers are `handler`). */
const JIT = /^(JITWorker|JSCWarmUp)/
const GC = /^(HeapHelper|mi-scavenger)/

const pct = (xs: number[], p: number) => {
  const v = [...xs].sort((a, b) => a - b)
  return v.length ? v[Math.min(v.length - 1, Math.floor((p / 100) * v.length))]! : NaN
}

const servers: Server[] = []
try {
  for (const [i, t] of trees.entries()) servers.push(await startServer(t, i))
  // warm-up: 20 calls on 8 channels of each
  for (const s of servers) {
    const warm = s.channels.slice(0, 8)
    await Promise.all(
      warm.map(async (c) => {
        for (let k = 0; k < 20; k++) await call(s, c)
      }),
    )
  }
  const load: string[] = []
  for (let r = 0; r < rounds; r++)
    for (const s of servers) {
      const l0 = loadavg()[0]!.toFixed(1)
      await window(s)
      load.push(`${l0}→${loadavg()[0]!.toFixed(1)}`)
    }
  console.log(
    `${machine()}; ${channels} channels, ${rate ? `open loop at ${rate} calls/s offered` : `closed loop, ${channels} calls in flight`}, ${seconds} s windows, ${rounds} rounds interleaved; load average per window ${load.join(', ')}`,
  )
  console.log('')
  console.log(
    '| server | calls/s per window | server CPU ms / call per window (median) | main thread | its sleeps (wake-ups) / call | handler workers | JIT | GC | other threads | p50 / p99 | other answers |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const s of servers) {
    const per = s.results.map((x) => x.cpuMs / x.calls)
    const med = [...per].sort((a, b) => a - b)[Math.floor(per.length / 2)]!
    const total = (k: (name: string) => boolean) =>
      s.results.reduce((a, x) => a + [...x.by].filter(([n]) => k(n)).reduce((b, [, v]) => b + v, 0), 0) /
      s.results.reduce((a, x) => a + x.calls, 0)
    const lat = s.results.flatMap((x) => x.lat)
    console.log(
      `| ${s.name} | ${s.results.map((x) => (x.calls / x.secs).toFixed(0)).join(', ')} | ${per.map((x) => x.toFixed(3)).join(', ')} (**${med.toFixed(3)}**) | ${total((n) => n === 'main').toFixed(3)} (system ${total((n) => n === MAIN_SYS).toFixed(3)}) | ${(s.results.reduce((a, x) => a + x.wakeups, 0) / s.results.reduce((a, x) => a + x.calls, 0)).toFixed(2)} | ${total((n) => n === 'handler').toFixed(3)} | ${total((n) => JIT.test(n)).toFixed(3)} | ${total((n) => GC.test(n)).toFixed(3)} | ${total((n) => n !== 'main' && n !== MAIN_SYS && n !== 'handler' && !JIT.test(n) && !GC.test(n)).toFixed(3)} | ${pct(lat, 50).toFixed(1)} / ${pct(lat, 99).toFixed(1)} ms | ${
        s.results
          .map((x) => x.bad)
          .filter(Boolean)
          .join('; ') || 'none'
      } |`,
    )
  }
  console.log('')
  console.log(
    `threads (ms of CPU per call, all windows): ${servers
      .map(
        (s) =>
          `${s.name}: ${[
            ...s.results.reduce((m, x) => {
              for (const [k, v] of x.by) m.set(k, (m.get(k) ?? 0) + v)
              return m
            }, new Map<string, number>()),
          ]
            .filter(([, v]) => v > 0)
            .map(([k, v]) => `${k} ${(v / s.results.reduce((a, x) => a + x.calls, 0)).toFixed(3)}`)
            .join(', ')}`,
      )
      .join(' | ')}`,
  )
  if (profile)
    for (const s of servers) {
      console.log('')
      console.log(
        `#### Main thread profile over the windows, ${s.name} (${s.results.reduce((a, x) => a + x.calls, 0)} calls)`,
      )
      const calls = s.results.reduce((a, x) => a + x.calls, 0)
      const main = s.results.reduce((a, x) => a + (x.by.get('main') ?? 0), 0) / calls
      console.log(summarize(s.profiles, calls, 30, main * 1000))
    }
} finally {
  for (const s of servers) await s.child.stop().catch(() => {})
  await chain.stop()
  rmSync(work, { recursive: true, force: true })
}
process.exit(0)
