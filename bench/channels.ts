/**
 * Payment channels (x402 `batch-settlement`, issue #26) beside `exact`, at the chain's pace: anvil mining a block every
 * 2 s and every 0.2 s, behind a JSON-RPC proxy adding 25 ms each way, the real server (bench/servers/app.ts, a child
 * process settling through that proxy) and the official clients (`@x402/fetch` with `@x402/evm/exact/client` or
 * `@x402/evm/batch-settlement/client`) paying `hash-digest`, the callers spread over worker threads. Each channel
 * caller is its own payer with its own channel: its first call deposits, the timed window pays by voucher.
 * Reports per block time: paid calls/s, p50/p99, server CPU per paid call (/proc/<pid>/stat utime + stime over the
 * window / paid calls), gas per paid call (the settled transactions' receipts, by contract function), and the books
 * after the claims and the sweep at shutdown: payee's on-chain delta = exact revenue + swept, swept = the sum of the
 * charges the clients were told (PAYMENT-RESPONSE extra.chargedAmount); the server is restarted on its database to
 * read `/stats` channels. With `--kill`, the server is also killed with SIGKILL in the middle of a channel window and
 * restarted on its database; the books must still balance after its claims and sweep. Then the sponsored-gas drain
 * (`--drainers D`, `--drain-cycles C`): sponsored gas per paid call without and with it.
 * Closed loop by default: each caller sends its next call when the previous one answered, so its latency is bounded by
 * callers ÷ throughput (Little's law). `--rate R` measures the N-caller rows open loop instead, as wrk2 does: R calls/s
 * offered by all callers together, each caller sending every N/R s from a random phase; latency runs from each call's
 * scheduled start to its answer, so a caller whose previous call has not answered yet (a channel serializes its calls)
 * sends late and the wait counts in that call's latency (no coordinated omission); the late starts are counted.
 * Not a test (no timed assertions): `bun bench/channels.ts [--quick] [--callers N] [--seconds S] [--calls N] [--exact-calls N]
 * [--blocks 2,0.2] [--workers W] [--keys K] [--kill] [--drainers D] [--drain-cycles C] [--only exact|channel] [--rate R] [--cpu-prof DIR] [--log warn]`. `--cpu-prof DIR`: the
 * server's first process writes a markdown CPU profile (bun --cpu-prof-md) into DIR when it shuts down.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { createPublicClient, decodeFunctionData, http, type Abi, type Hex, type TransactionReceipt } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { BATCH_SETTLEMENT } from '../runtime/chain/addresses'
import { abiOf } from '../runtime/chain/contracts'
import { startDevChain } from '../runtime/chain/devchain'
import { localBase, setEthBalance, USDC_BASE, usdcBalance } from '../runtime/chain/usdc'
import { clientFor, fundPayers, NETWORK } from '../test/support/channels'
import { payingFetch } from '../test/support/paying-fetch'
import { startFaultProxy } from '../test/support/rpc-faults'
import { machine, startChild, type Child } from './lib'

const BODY = JSON.stringify({ text: 'benchmark', algo: 'sha256' })
const INIT = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }
const CLK_TCK = 100 // Linux USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

interface Job {
  mode: 'exact' | 'channel'
  url: string
  rpcUrl: string
  keys: Hex[]
  seconds?: number
  calls?: number
  /** Open loop: each caller sends every `periodMs` from a random phase (else closed loop). */
  periodMs?: number
}
interface Outcome {
  lat: number[]
  /** Open loop: calls that started after their scheduled time (the caller's previous call had not answered). */
  late: number
  statuses: [number, number][]
  charged: string
  deposits: { ms: number; tx: string; status: number; why: string }[]
}

// ---- worker: callers of one thread --------------------------------------------------------------------------------

async function callers(job: Job): Promise<void> {
  const pays = job.keys.map((key) =>
    job.mode === 'exact'
      ? payingFetch(key)
      : wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(job.rpcUrl, key))),
  )
  const out: Outcome = { lat: [], late: 0, statuses: [], charged: '0', deposits: [] }
  let charged = 0n
  const statuses = new Map<number, number>()
  const chargeOf = (r: Response) => {
    const h = r.headers.get('payment-response')
    if (!h || r.status !== 200) return
    const extra = decodePaymentResponseHeader(h).extra as { chargedAmount?: string } | undefined
    if (extra?.chargedAmount) charged += BigInt(extra.chargedAmount)
  }
  // channel: each caller's first call opens its channel (the deposit), before the timed window
  if (job.mode === 'channel')
    await Promise.all(
      pays.map(async (pay) => {
        const t = performance.now()
        let why = ''
        const r = await pay(job.url, INIT).catch(
          (e) => ((why = String((e as Error)?.message ?? e).slice(0, 120)), null),
        )
        const body = r && r.status !== 200 ? await r.text() : (await r?.arrayBuffer(), '')
        if (r) chargeOf(r)
        if (r?.status === 402)
          why = JSON.parse(Buffer.from(r.headers.get('payment-required') ?? 'e30=', 'base64').toString()).error ?? ''
        else if (r && r.status !== 200) why = body.slice(0, 160)
        const tx = r?.headers.get('payment-response')
        out.deposits.push({
          ms: performance.now() - t,
          tx: tx ? decodePaymentResponseHeader(tx).transaction : '',
          status: r?.status ?? 0,
          why,
        })
      }),
    )
  parentPort!.postMessage({ ready: true })
  await new Promise<void>((go) => parentPort!.once('message', () => go()))
  parentPort!.on('message', (m: { url?: string }) => {
    if (m.url) job.url = m.url // the server was restarted (--kill)
  })
  const start = performance.now()
  const deadline = start + (job.seconds ?? Infinity) * 1000
  let budget = job.calls ?? Infinity
  const period = job.periodMs
  await Promise.all(
    pays.map(async (pay) => {
      let next = period ? start + Math.random() * period : 0 // open loop: this call's scheduled start
      while ((period ? next : performance.now()) < deadline && budget-- > 0) {
        if (period) {
          const wait = next - performance.now()
          if (wait > 0) await Bun.sleep(wait)
          else out.late++
        }
        const t = period ? next : performance.now()
        next += period ?? 0
        const r = await pay(job.url, INIT).catch(() => null)
        await r?.arrayBuffer()
        out.lat.push(performance.now() - t)
        if (r) chargeOf(r)
        else await Bun.sleep(50) // no answer (the server is down: --kill): do not spin
        statuses.set(r?.status ?? 0, (statuses.get(r?.status ?? 0) ?? 0) + 1)
      }
    }),
  )
  out.statuses = [...statuses]
  out.charged = String(charged)
  parentPort!.postMessage({ done: out })
}

if (!isMainThread && (workerData as { bench?: string })?.bench === 'channels') await callers(workerData.job as Job)

// ---- main ---------------------------------------------------------------------------------------------------------

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN
}
const cpuTicks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return Number(f[11]) + Number(f[12]) // utime, stime (fields 14 and 15)
}

interface Window {
  ok: number
  secs: number
  lat: number[]
  late: number
  others: string
  charged: bigint
  cpuMsPerCall: number
  /** CPU time of this process (the callers' worker threads) per paid call. */
  clientCpuMsPerCall: number
  deposits: Outcome['deposits']
}

/** Runs `keys` callers over `workers` threads: setup (channel deposits), then a timed window measured here. */
async function run(
  o: Omit<Job, 'keys'> & {
    keys: Hex[]
    workers: number
    pid: () => number
    /** Open loop: calls/s offered by all the callers together. */
    rate?: number
    midway?: (tell: (url: string) => void) => Promise<void>
  },
): Promise<Window> {
  const n = Math.min(o.workers, o.keys.length)
  const ws = Array.from({ length: n }, (_, i) => {
    const job: Job = {
      mode: o.mode,
      url: o.url,
      rpcUrl: o.rpcUrl,
      keys: o.keys.filter((_, k) => k % n === i),
      seconds: o.seconds,
      calls: o.calls === undefined ? undefined : Math.ceil(o.calls / n),
      periodMs: o.rate ? (o.keys.length / o.rate) * 1000 : undefined,
    }
    return new Worker(new URL(import.meta.url), { workerData: { bench: 'channels', job } })
  })
  const ready = ws.map((w) => new Promise((r) => w.once('message', r)))
  const done = ws.map(
    (w) =>
      new Promise<Outcome>((resolve, reject) => {
        w.on('message', (m: { done?: Outcome }) => m.done && resolve(m.done))
        w.on('error', reject)
      }),
  )
  await Promise.all(ready)
  const cpu0 = cpuTicks(o.pid())
  const t0 = performance.now()
  for (const w of ws) w.postMessage('go')
  const mid =
    o.midway &&
    new Promise<void>((resolve) =>
      setTimeout(
        () => resolve(o.midway!((url) => ws.forEach((w) => w.postMessage({ url })))),
        ((o.seconds ?? 2) * 1000) / 3,
      ),
    )
  const client0 = process.cpuUsage()
  const outs = await Promise.all(done)
  const secs = (performance.now() - t0) / 1000
  const cpu1 = o.midway ? NaN : cpuTicks(o.pid())
  const client = process.cpuUsage(client0)
  await mid
  await Promise.all(ws.map((w) => w.terminate()))
  const statuses = new Map<number, number>()
  for (const out of outs) for (const [s, k] of out.statuses) statuses.set(s, (statuses.get(s) ?? 0) + k)
  const ok = statuses.get(200) ?? 0
  return {
    ok,
    secs,
    lat: outs.flatMap((x) => x.lat),
    late: outs.reduce((a, x) => a + x.late, 0),
    others:
      [...statuses]
        .filter(([s]) => s !== 200)
        .map(([s, k]) => `${k}× ${s || 'error'}`)
        .join(', ') || 'none',
    charged: outs.reduce((a, x) => a + BigInt(x.charged), 0n),
    cpuMsPerCall: (((cpu1 - cpu0) / CLK_TCK) * 1000) / Math.max(1, ok),
    clientCpuMsPerCall: (client.user + client.system) / 1000 / Math.max(1, ok),
    deposits: outs.flatMap((x) => x.deposits),
  }
}

/** Gas of the transactions mined in blocks (from, to], by kind: `exact` (USDC) or the settlement contract's function. */
async function gasByKind(rpcUrl: string, from: bigint, to: bigint, senders: Set<string>) {
  const pub = createPublicClient({ chain: localBase(rpcUrl), transport: http(rpcUrl) })
  const abi = abiOf('X402BatchSettlement') as Abi
  const kinds = new Map<string, { txs: number; gas: bigint }>()
  for (let b = from + 1n; b <= to; b++) {
    const block = await pub.getBlock({ blockNumber: b, includeTransactions: true })
    for (const tx of block.transactions) {
      if (!senders.has(tx.from.toLowerCase())) continue
      const r: TransactionReceipt = await pub.getTransactionReceipt({ hash: tx.hash })
      let kind = 'other'
      if (tx.to?.toLowerCase() === USDC_BASE.toLowerCase()) kind = 'exact'
      else if (tx.to?.toLowerCase() === BATCH_SETTLEMENT.toLowerCase())
        try {
          kind = decodeFunctionData({ abi, data: tx.input }).functionName
        } catch {
          kind = 'settlement?'
        }
      const k = kinds.get(kind) ?? { txs: 0, gas: 0n }
      k.txs++
      k.gas += r.gasUsed
      kinds.set(kind, k)
    }
  }
  return kinds
}

interface Plan {
  blocks: number[]
  callers: number
  seconds: number
  calls: number
  /** Calls of the 1-caller `exact` row (each waits for a block). */
  exactCalls: number
  workers: number
  keys: number
  kill: boolean
  /** Open loop for the N-caller rows: calls/s offered by all callers together (else closed loop). */
  rate?: number
  /** Only this scheme (`exact` or `channel`), else both. */
  only?: string
  /** A directory: the server's first process writes a CPU profile there (bun --cpu-prof-md) at shutdown. */
  cpuProf?: string
  /**
   * Sponsored-gas drain (issue #32): this many payers each try `drainCycles` cycles of a deposit through a call whose
   * handler fails, then a cooperative refund of everything; the report gives sponsored gas per paid call before and after.
   */
  drainers: number
  drainCycles: number
  /** The server's log level (its lines go to stdout, summarized at the end by message). */
  log?: string
}

/**
 * The sponsored-gas drain (issue #32 item 1): each drainer deposits through `json-yaml-convert` with broken YAML (a
 * 422 after the payment was admitted: nothing charged), then takes everything back with the official client's
 * cooperative refund (a fresh client: it never heard of its deposit), `cycles` times. Sponsored gas (/stats
 * `channels.sponsored_gas_wei`: deposits and refunds sent for payers) per paid call, before and after.
 */
async function drain(
  base: string,
  rpcUrl: string,
  keys: Hex[],
  cycles: number,
  paidCalls: number,
  stats: () => Promise<any>,
) {
  const url = `${base}/api/v1/json-yaml-convert`
  const bad = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: 'a: [\n b', from: 'yaml', to: 'json' }),
  }
  const before = BigInt((await stats()).channels.sponsored_gas_wei)
  const seen = new Map<string, number>()
  const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1)
  for (const key of keys)
    for (let i = 0; i < cycles; i++) {
      const r = await wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(rpcUrl, key)))(url, bad)
      await r.arrayBuffer()
      if (r.status !== 422) {
        count(
          `call ${r.status} ${JSON.parse(Buffer.from(r.headers.get('payment-required') ?? 'e30=', 'base64').toString()).error ?? ''}`,
        )
        continue
      }
      count('deposit sponsored, call failed (422)')
      const refunded = await clientFor(rpcUrl, key)
        .refund(url)
        .then(
          () => 'refund sponsored',
          (e) => `refund refused: ${String((e as Error)?.message ?? e).slice(0, 80)}`,
        )
      count(refunded)
    }
  const after = BigInt((await stats()).channels.sponsored_gas_wei)
  const per = (wei: bigint) => (Number(wei) / Math.max(1, paidCalls)).toFixed(0)
  return `- sponsored gas (deposits and refunds sent for payers, wei at the dev chain's gas price): ${before} for ${paidCalls} paid channel calls = **${per(before)} wei per paid call without the drain**; after ${keys.length} drainers × ${cycles} cycles (${[...seen].map(([k, n]) => `${n}× ${k}`).join(', ')}): ${after} = **${per(after)} wei per paid call with the drain** (+${after - before}, ${(Number(after - before) / Math.max(1, keys.length)).toFixed(0)} per drainer whatever the cycles)`
}

async function round(blockS: number, p: Plan): Promise<string[]> {
  const chain = await startDevChain({ blockTime: blockS, payerUsdc: 100_000_000_000n })
  const proxy = startFaultProxy(chain.rpcUrl)
  proxy.latency = { in: 25, out: 25 }
  const dir = mkdtempSync(join(tmpdir(), 'channels-bench-'))
  const settlerKeys = Array.from({ length: p.keys }, () => generatePrivateKey())
  const payers = Array.from({ length: p.callers + 1 + p.drainers }, () => generatePrivateKey())
  const drainers = payers.splice(p.callers + 1)
  await Promise.all(settlerKeys.map((k) => setEthBalance(chain.rpcUrl, privateKeyToAccount(k).address, 10n ** 20n)))
  await fundPayers(chain, [...payers, ...drainers], 100_000_000n) // 100 USDC each: deposits of CHANNEL_MIN_DEPOSIT_USD (1 USDC)
  const env = {
    RPC_URL: proxy.url,
    SETTLER_PRIVATE_KEYS: settlerKeys.join(','),
    PAY_TO: chain.payee.address,
    DATABASE_PATH: join(dir, 'db.sqlite'),
    BENCH_CLOSE_ON_TERM: '1',
    ...(p.log ? { BENCH_LOG_LEVEL: p.log } : {}),
  }
  let boots = 0
  const prof = p.cpuProf ? [`--cpu-prof-md`, `--cpu-prof-dir=${p.cpuProf}`] : []
  const children: Child[] = []
  const boot = async () => {
    const argv = [process.execPath, ...(prof.length && boots++ === 0 ? prof : []), 'bench/servers/app.ts']
    children.push(await startChild(argv, env, 60_000))
    return children[children.length - 1]
  }
  let child: Child = await boot()
  const base = () => `http://127.0.0.1:${child.port}`
  const url = () => `${base()}/api/v1/hash-digest`
  const stats = async () => (await (await fetch(`${base()}/stats`)).json()) as any
  const revenue = async () =>
    BigInt(((await (await fetch(`${base()}/stats/today`)).json()) as any).schemes.exact.revenue_atomic)
  const pub = createPublicClient({ chain: localBase(chain.rpcUrl), transport: http(chain.rpcUrl) })
  const block0 = await pub.getBlockNumber()
  const payee0 = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const price = BigInt(
    JSON.parse(Buffer.from((await fetch(url(), INIT)).headers.get('payment-required')!, 'base64').toString()).accepts[0]
      .amount,
  )
  const common = { rpcUrl: chain.rpcUrl, workers: p.workers, pid: () => child.pid }
  const rows: string[] = []
  const notes: string[] = []
  let channelCharged = 0n
  let channelCalls = 0
  let killed = ''
  const row = (scheme: string, callers: number, w: Window, extra = '', rate?: number) => {
    const ms = (p: number) => `${pct(w.lat, p).toFixed(1)} ms`
    const mode = rate ? `open, ${rate}/s offered, ${w.late} late starts` : 'closed'
    rows.push(
      `| ${blockS} s | ${scheme} | ${callers} | ${mode} | ${w.ok} in ${w.secs.toFixed(1)} s | **${(w.ok / w.secs).toFixed(1)}** | ${ms(50)} | ${ms(90)} | ${ms(99)} | ${ms(100)} | ${Number.isNaN(w.cpuMsPerCall) ? '—' : w.cpuMsPerCall.toFixed(2)} | ${w.clientCpuMsPerCall.toFixed(2)} | ${w.others} | ${extra} |`,
    )
  }
  try {
    // exact: warm-up, 1 caller, N callers (one payer: EIP-3009 nonces are random)
    const exactKey = chain.payer.privateKey as Hex
    if (p.only !== 'channel') {
      await run({ ...common, mode: 'exact', url: url(), keys: [exactKey], calls: 2, workers: 1 })
      row(
        'exact',
        1,
        await run({ ...common, mode: 'exact', url: url(), keys: [exactKey], calls: p.exactCalls, workers: 1 }),
      )
      row(
        'exact',
        p.callers,
        await run({
          ...common,
          mode: 'exact',
          url: url(),
          keys: Array(p.callers).fill(exactKey),
          seconds: p.seconds,
          rate: p.rate,
        }),
        '',
        p.rate,
      )
    }
    const exactRevenue = await revenue()
    // channel: 1 caller (p50 after its deposit), then N callers each with its own channel
    if (p.only === 'exact') return [...rows]
    const one = await run({ ...common, mode: 'channel', url: url(), keys: [payers[0]], calls: p.calls, workers: 1 })
    channelCharged += one.charged
    channelCalls += one.ok + one.deposits.filter((d) => d.status === 200).length
    row('channel', 1, one, `deposit ${one.deposits[0]?.ms.toFixed(0)} ms`)
    const many = await run({
      ...common,
      mode: 'channel',
      url: url(),
      keys: payers.slice(1),
      seconds: p.seconds,
      rate: p.rate,
      midway: p.kill
        ? async (tell) => {
            process.kill(child.pid, 'SIGKILL')
            killed = `SIGKILL at ${(p.seconds / 3).toFixed(1)} s into the window, restarted on its database`
            child = await boot()
            tell(url())
          }
        : undefined,
    })
    channelCharged += many.charged
    channelCalls += many.ok + many.deposits.filter((d) => d.status === 200).length
    const landed = many.deposits.filter((d) => d.status === 200 && /^0x[0-9a-f]{64}$/.test(d.tx)).length
    const missed = many.deposits
      .filter((d) => !(d.status === 200 && /^0x[0-9a-f]{64}$/.test(d.tx)))
      .map(
        (d) =>
          `${d.status || 'error'}${d.status === 200 ? ' without a transaction' : ''} after ${d.ms.toFixed(0)} ms: ${d.why || '?'}`,
      )
    const dep = many.deposits.map((d) => d.ms)
    row(
      'channel',
      p.callers,
      many,
      `deposits landed ${landed}/${p.callers}${missed.length ? ` (missed: ${missed.join('; ')})` : ''} (p50 ${pct(dep, 50).toFixed(0)} ms, max ${Math.max(...dep).toFixed(0)} ms)`,
      p.rate,
    )
    if (killed) {
      // SIGKILL mid-window: the callers' URL pointed at the dead port; what the server charged is what counts
      notes.push(
        `- ${killed}: the callers were told the new port; the requests in flight at the kill failed, a payer whose charge was committed but whose answer was lost is resynchronized by the corrective 402`,
      )
    }
    if (p.drainers && !killed)
      notes.push(await drain(base(), chain.rpcUrl, drainers, p.drainCycles, channelCalls, stats))
    // the books: SIGTERM (claims + sweep at shutdown), then restart on the database to read /stats
    if (p.log) {
      const msgs = new Map<string, number>()
      for (const l of children.flatMap((c) => c.lines.join('').split('\n')))
        if (l.startsWith('{')) {
          let j: { msg?: string; error?: string }
          try {
            j = JSON.parse(l)
          } catch {
            continue
          }
          const k = `${j.msg}${j.error ? `: ${j.error.slice(0, 200)}` : ''}`
          msgs.set(k, (msgs.get(k) ?? 0) + 1)
        }
      for (const [k, n] of msgs) notes.push(`- server log (${blockS} s blocks): ${n}× ${k}`)
    }
    const before = (await stats()).channels
    const exactStats = exactRevenue
    await child.stop()
    const payee1 = await usdcBalance(chain.rpcUrl, chain.payee.address)
    child = await boot()
    const after = (await stats()).channels
    await child.stop()
    const block1 = await pub.getBlockNumber()
    const kinds = await gasByKind(
      chain.rpcUrl,
      block0,
      block1,
      new Set(settlerKeys.map((k) => privateKeyToAccount(k).address.toLowerCase())),
    )
    const earned = BigInt(after.earned_atomic)
    const swept = BigInt(after.swept_atomic)
    const delta = payee1 - payee0
    const booksExact = delta === exactStats + swept && swept === earned && (killed ? true : earned === channelCharged)
    notes.push(
      `- books (${blockS} s blocks, price ${price} atomic): payee on-chain Δ ${delta} = exact revenue ${exactStats} + swept ${swept}: ${delta === exactStats + swept ? 'yes' : '**NO**'}; swept = earned (/stats) ${earned}: ${swept === earned ? 'yes' : '**NO**'}; earned = sum of charges told to the clients ${channelCharged}: ${earned === channelCharged ? 'yes' : killed ? 'no (the kill: charges whose answers were lost are earned but not told)' : '**NO**'}; claimed ${after.claimed_atomic}; before shutdown /stats earned ${before.earned_atomic}, claimed ${before.claimed_atomic}, swept ${before.swept_atomic}; channels ${after.channels}, paid calls ${after.paid_calls} (${channelCalls} counted by the clients); **books exact: ${booksExact ? 'yes' : 'NO'}**`,
    )
    const g = (k: string) => kinds.get(k) ?? { txs: 0, gas: 0n }
    const chans = Number(after.channels)
    const kindList = [...kinds].map(([k, v]) => `${k} ${v.txs} tx / ${v.gas} gas`).join(', ')
    const exactPer = g('exact').txs ? Number(g('exact').gas) / g('exact').txs : NaN
    const channelGas = [...kinds].filter(([k]) => k !== 'exact').reduce((a, [, v]) => a + Number(v.gas), 0)
    const perChannel = channelGas / Math.max(1, chans)
    notes.push(
      `- gas (${blockS} s blocks), the settlers' transactions: ${kindList}. exact ${exactPer.toFixed(0)} gas per paid call; channels: ${channelGas} gas for ${chans} channels = ${perChannel.toFixed(0)} gas per channel (its deposit, its share of the claims and the sweep) → **${(channelGas / Math.max(1, channelCalls)).toFixed(0)} gas per paid call** at this run's ${(channelCalls / Math.max(1, chans)).toFixed(0)} calls per channel; ÷ 1,000 = ${(perChannel / 1000).toFixed(0)}, a floor for a channel used 1,000 times (the default policy also claims a channel each time its unclaimed charges reach $0.25: run few callers for long to measure channels used ~1,000 times)`,
    )
  } finally {
    await child.stop().catch(() => {})
    proxy.stop()
    await chain.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return [...rows, ...notes]
}

if (isMainThread && import.meta.main) {
  const arg = (name: string, d: string) => {
    const i = process.argv.indexOf(`--${name}`)
    return i > 0 ? process.argv[i + 1] : d
  }
  const quick = process.argv.includes('--quick')
  const plan: Plan = {
    blocks: arg('blocks', quick ? '2,0.2' : '2,0.2')
      .split(',')
      .map(Number),
    callers: Number(arg('callers', quick ? '32' : '128')),
    seconds: Number(arg('seconds', quick ? '4' : '20')),
    calls: Number(arg('calls', quick ? '10' : '100')),
    exactCalls: Number(arg('exact-calls', quick ? '4' : '10')),
    workers: Number(arg('workers', '2')),
    keys: Number(arg('keys', '1')),
    kill: process.argv.includes('--kill'),
    drainers: Number(arg('drainers', '2')),
    drainCycles: Number(arg('drain-cycles', quick ? '3' : '6')),
    rate: Number(arg('rate', '')) || undefined,
    only: arg('only', '') || undefined,
    cpuProf: arg('cpu-prof', '') || undefined,
    log: arg('log', '') || undefined,
  }
  const t0 = performance.now()
  const load0 = loadavg()
  const head = [
    `${machine()}; load average at start ${load0.map((x) => x.toFixed(2)).join(' ')}; ${plan.callers} callers over ${plan.workers} worker threads, ${plan.seconds} s windows, 1 caller ${plan.calls} calls by channel (after its deposit) and ${plan.exactCalls} by exact, ${plan.keys} settler key(s); ${plan.rate ? `open loop at ${plan.rate} calls/s offered for the ${plan.callers}-caller rows (latency from each call's scheduled start), closed loop for 1 caller` : 'closed loop (each caller sends when its previous call answered)'}`,
    '',
    '| block | scheme | callers | mode | paid calls | paid/s | p50 | p90 | p99 | max | server CPU ms / paid call | client CPU ms / paid call | other answers | |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  const lines: string[] = []
  for (const b of plan.blocks) lines.push(...(await round(b, plan)))
  console.log(
    [
      ...head,
      ...lines.filter((l) => l.startsWith('|')),
      '',
      ...lines.filter((l) => !l.startsWith('|')),
      `- load average at end ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; run time ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    ].join('\n'),
  )
  process.exit(0)
}
