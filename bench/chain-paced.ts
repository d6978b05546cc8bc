/**
 * Paid calls at the chain's pace (mainnet-like simulation): anvil mining a block every 2 s (Base's block time)
 * behind a JSON-RPC proxy adding 25 ms each way (a hosted RPC), the real server in a child process settling
 * through that proxy, and the official @x402/fetch client paying `hash-digest` from N concurrent callers, each its own
 * payer (agents).
 * Reports paid calls/s, p50/p99 latency of a whole paid call (402 + paid retry), RPC requests per paid call, and
 * checks the books: payee's on-chain delta = /stats revenue = 200s × price, exactly.
 * Not a test (no timed assertions): `bun bench/chain-paced.ts [--smoke] [--keys N] [--batch MS]`; `bun run bench`
 * includes it. `--batch MS` turns on settlement batching (Multicall3 aggregate3, MS-millisecond window).
 * Bench-only knobs: CHAIN_PACED_DB=:memory: (ledger in memory, isolates the pipeline from disk commits),
 * CHAIN_PACED_ONLY=128 (run one caller count), CHAIN_PACED_CPU_PROF=DIR (the server's CPU profile, written at its exit),
 * CHAIN_PACED_PAYERS=N (the callers share N payers; 1: every caller pays as one), CHAIN_PACED_WHY=1 (refusals with
 * their message), CHAIN_PACED_SERVER_DIR=DIR (the server from another tree, e.g. `git archive <commit>` with a
 * node_modules link, to compare commits in alternate runs).
 * Server CPU per paid call is the server process's utime + stime over the window (/proc), client CPU the bench
 * process's (the official clients sign here); "late" counts calls that took more than one block + 0.5 s (they missed
 * the block after their request).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { startDevChain } from '../runtime/chain/devchain'
import { setEthBalance, usdcBalance } from '../runtime/chain/usdc'
import { startChild } from './lib'
import { payingFetch } from '../test/support/paying-fetch'
import { fundPayers } from '../test/support/channels'

const BLOCK_S = 2
const BODY = JSON.stringify({ text: 'benchmark', algo: 'sha256' })
/** CPU time (user + system, ms) a process has used, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}
/** CPU time (ms) of each of a process's threads, summed by thread name (/proc/<pid>/task/<tid>/stat). */
const threadCpuMs = (pid: number) => {
  const out = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const raw = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const name = raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')')).replace(/\d+$/, '#')
      const f = raw.slice(raw.lastIndexOf(') ') + 2).split(' ')
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10)
    } catch {
      /* the thread ended */
    }
  }
  return out
}
const ownCpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
/** The error code of a refusal's body (the project's one error shape), for the "other answers" column. */
const errorCode = (body: string | undefined) => {
  try {
    const e = (JSON.parse(body ?? '') as { error?: { code?: string; message?: string } }).error
    return process.env.CHAIN_PACED_WHY ? `${e?.code} (${e?.message})` : String(e?.code ?? '')
  } catch {
    return ''
  }
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN
}

export async function chainPaced(o: { smoke: boolean; keys: number; batchMs?: number }): Promise<string[]> {
  const only = process.env.CHAIN_PACED_ONLY ? Number(process.env.CHAIN_PACED_ONLY) : 0
  const plan = (
    o.smoke
      ? [
          { callers: 1, calls: 2 },
          { callers: 8, seconds: 4 },
        ]
      : [
          { callers: 1, calls: 10 },
          { callers: 32, seconds: 20 },
          { callers: 128, seconds: 20 },
        ]
  ).filter((s) => !only || s.callers === only)
  const chain = await startDevChain({ blockTime: BLOCK_S, payerUsdc: 100_000_000_000n })
  // the hosted RPC in its own process (bench/servers/rpc-proxy.ts), not on the paying clients' event loop
  const rpcProxy = await startChild([process.execPath, 'bench/servers/rpc-proxy.ts'], {
    RPC_TARGET: chain.rpcUrl,
    RPC_LATENCY_MS: '25',
  })
  const control = `http://127.0.0.1:${rpcProxy.lines.find((l) => l.startsWith('CONTROL '))!.split(' ')[1]}/calls`
  const proxy = {
    url: `http://127.0.0.1:${rpcProxy.port}`,
    clear: () => fetch(control, { method: 'POST' }).then((r) => r.arrayBuffer()),
    total: async () =>
      Object.values((await (await fetch(control)).json()) as Record<string, number>).reduce((a, b) => a + b, 0),
  }
  const dir = mkdtempSync(join(tmpdir(), 'chain-paced-'))
  const keys = Array.from({ length: o.keys }, () => generatePrivateKey())
  await Promise.all(keys.map((k) => setEthBalance(chain.rpcUrl, privateKeyToAccount(k).address, 10n ** 20n)))
  const prof = process.env.CHAIN_PACED_CPU_PROF
  const child = await startChild(
    [
      process.execPath,
      ...(prof ? ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${prof}`] : []),
      'bench/servers/app.ts',
    ],
    {
      ...(prof ? { BENCH_CLOSE_ON_TERM: '1' } : {}),
      RPC_URL: proxy.url,
      SETTLER_PRIVATE_KEYS: keys.join(','),
      ...(o.batchMs ? { BENCH_BATCH_MS: String(o.batchMs) } : {}),
      PAY_TO: chain.payee.address,
      DATABASE_PATH: process.env.CHAIN_PACED_DB ?? join(dir, 'db.sqlite'),
    },
    60_000,
    process.env.CHAIN_PACED_SERVER_DIR || undefined,
  )
  const base = `http://127.0.0.1:${child.port}`
  const url = `${base}/api/v1/hash-digest`
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }
  // Each caller pays as its own payer (128 callers = 128 agents), as bench/channels.ts's channel callers do; the
  // handler pool shares its workers per payer (runtime/isolate/pool.ts), so one payer's 128 concurrent calls run 4 at a
  // time and the rest of a burst past its queue is refused (503 BUSY). CHAIN_PACED_PAYERS=1: every caller pays as one.
  const payerCount = Math.max(1, Number(process.env.CHAIN_PACED_PAYERS ?? Math.max(...plan.map((s) => s.callers))))
  const payerKeys = [
    chain.payer.privateKey as Hex,
    ...Array.from({ length: payerCount - 1 }, () => generatePrivateKey()),
  ]
  if (payerKeys.length > 1) await fundPayers(chain, payerKeys.slice(1), 1_000_000_000n)
  const payers = payerKeys.map((k) => payingFetch(k))
  const pay = payers[0]!
  const ethOf = async (a: string) =>
    BigInt(
      (
        (await (
          await fetch(chain.rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [a, 'latest'] }),
          })
        ).json()) as { result: string }
      ).result,
    )
  const settlerWei = async () =>
    (await Promise.all(keys.map((k) => ethOf(privateKeyToAccount(k).address)))).reduce((x, y) => x + y, 0n)
  const revenue = async () =>
    Math.round((((await (await fetch(`${base}/stats/today`)).json()) as any).totals.revenue_usd as number) * 1e6)
  const price = BigInt(
    JSON.parse(Buffer.from((await fetch(url, init)).headers.get('payment-required')!, 'base64').toString()).accepts[0]
      .amount,
  )
  const rows: string[] = []
  const verdicts: string[] = []
  const threadLines: string[] = []
  try {
    // warm-up: first fee read, first nonce, JIT
    for (let i = 0; i < 2; i++) await (await pay(url, init)).arrayBuffer()
    for (const step of plan) {
      const [payee0, revenue0, wei0] = [
        await usdcBalance(chain.rpcUrl, chain.payee.address),
        await revenue(),
        await settlerWei(),
      ]
      await proxy.clear()
      const lat: number[] = []
      const statuses = new Map<number | string, number>()
      const t0 = performance.now()
      const [server0, client0, threads0] = [cpuMs(child.pid), ownCpuMs(), threadCpuMs(child.pid)]
      const deadline = t0 + ('seconds' in step ? step.seconds! * 1000 : Infinity)
      let budget = 'calls' in step ? step.calls! : Infinity
      await Promise.all(
        Array.from({ length: step.callers }, async (_, i) => {
          const pay = payers[i % payers.length]!
          while (performance.now() < deadline && budget-- > 0) {
            const t = performance.now()
            const r = await pay(url, init).catch(() => null)
            const body = await r?.text()
            lat.push(performance.now() - t)
            const key = r?.status === 200 || !r ? (r?.status ?? 0) : `${r.status} ${errorCode(body)}`
            statuses.set(key, (statuses.get(key) ?? 0) + 1)
          }
        }),
      )
      const secs = (performance.now() - t0) / 1000
      const ok = statuses.get(200) ?? 0
      const serverPer = (cpuMs(child.pid) - server0) / Math.max(1, ok)
      const clientPer = (ownCpuMs() - client0) / Math.max(1, ok)
      const threads = [...threadCpuMs(child.pid)]
        .map(([name, ms]) => [name, (ms - (threads0.get(name) ?? 0)) / Math.max(1, ok)] as const)
        .filter(([, ms]) => ms >= 0.05)
        .sort((a, b) => b[1] - a[1])
      threadLines.push(
        `${step.callers} caller(s): server CPU per paid call by thread (ms; workers' threads end and restart, so their share may be undercounted): ${threads.map(([n, ms]) => `${n} ${ms.toFixed(2)}`).join(', ')}`,
      )
      const late = lat.filter((ms) => ms > BLOCK_S * 1000 + 500).length
      const rpcPer = (await proxy.total()) / Math.max(1, ok)
      const [payee1, revenue1, wei1] = [
        await usdcBalance(chain.rpcUrl, chain.payee.address),
        await revenue(),
        await settlerWei(),
      ]
      const gweiPer = Number((wei0 - wei1) / BigInt(Math.max(1, ok))) / 1e9
      const books = payee1 - payee0 === BigInt(revenue1 - revenue0) && payee1 - payee0 === BigInt(ok) * price
      const [p50, p99] = [pct(lat, 50) / 1000, pct(lat, 99) / 1000]
      const others =
        [...statuses]
          .filter(([s]) => s !== 200)
          .map(([s, n]) => `${n}× ${s || 'error'}`)
          .join(', ') || 'none'
      rows.push(
        `| ${step.callers} | ${ok} in ${secs.toFixed(1)} s | **${(ok / secs).toFixed(1)}** | ${p50.toFixed(2)} s | ${p99.toFixed(2)} s | ${late} | ${serverPer.toFixed(2)} / ${clientPer.toFixed(2)} | ${rpcPer.toFixed(2)} | ${gweiPer.toFixed(0)} | ${others} | ${books ? `yes: ${payee1 - payee0} = ${revenue1 - revenue0} = ${ok} × ${price}` : `**NO**: payee +${payee1 - payee0}, /stats +${revenue1 - revenue0}, ${ok} × ${price}`} |`,
      )
      if (step.callers === 1)
        verdicts.push(
          `1 caller p50 ${p50.toFixed(2)} s (target ≤ ${BLOCK_S + 0.3} s): ${p50 <= BLOCK_S + 0.3 ? 'met' : 'NOT met'}`,
        )
      if (step.callers >= 128)
        verdicts.push(
          `128 callers ${(ok / secs).toFixed(1)} paid/s (target ≥ 50): ${ok / secs >= 50 ? 'met' : 'NOT met'}; p99 ${p99.toFixed(2)} s (target ≤ ${BLOCK_S + 0.6} s): ${p99 <= BLOCK_S + 0.6 ? 'met' : 'NOT met'}`,
        )
      verdicts.push(
        `${step.callers} caller(s): ${rpcPer.toFixed(2)} RPC requests per paid call (target ≤ 3): ${rpcPer <= 3 ? 'met' : 'NOT met'}; every answer 200: ${others === 'none' ? 'yes' : 'NO'}; books exact: ${books ? 'yes' : 'NO'}`,
      )
    }
  } finally {
    await child.stop()
    await rpcProxy.stop()
    await chain.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return [
    `anvil \`--block-time ${BLOCK_S}\` behind an RPC proxy adding 25 ms each way (its own process); the server (child process, ${o.keys} settler key${o.keys > 1 ? 's' : ''}${o.batchMs ? `, batching with a ${o.batchMs} ms window` : ''}) settles through the proxy; the official \`@x402/fetch\` client pays \`hash-digest\` (${price} atomic USDC) from N concurrent callers in the bench process (${payers.length === 1 ? 'one payer' : 'each caller its own payer'}), each call = 402 challenge + paid retry. RPC requests are counted at the proxy (verification, settlement, fee and balance reads, everything) and divided by paid calls.`,
    '',
    '| callers | paid calls | paid/s | p50 | p99 | late (> block + 0.5 s) | CPU ms / paid call, server / client | RPC req / paid call | settler gas cost / paid call (gwei) | other answers | payee Δ = /stats revenue = 200s × price |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...verdicts.map((v) => `- ${v}`),
    ...threadLines.map((v) => `- ${v}`),
  ]
}

if (import.meta.main) {
  const smoke = process.argv.includes('--smoke')
  const k = process.argv.indexOf('--keys')
  const b = process.argv.indexOf('--batch')
  for (const l of await chainPaced({
    smoke,
    keys: k > 0 ? Number(process.argv[k + 1]) : 1,
    batchMs: b > 0 ? Number(process.argv[b + 1]) : undefined,
  }))
    console.log(l)
}
