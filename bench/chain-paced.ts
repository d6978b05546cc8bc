/**
 * Paid calls at the chain's pace (mainnet-like simulation): anvil mining a block every 2 s (Base's block time)
 * behind a JSON-RPC proxy adding 25 ms each way (a hosted RPC), the real server in a child process settling
 * through that proxy, and the official @x402/fetch client paying `hash-digest` from N concurrent callers.
 * Reports paid calls/s, p50/p99 latency of a whole paid call (402 + paid retry), RPC requests per paid call, and
 * checks the books: payee's on-chain delta = /stats revenue = 200s × price, exactly.
 * Not a test (no timed assertions): `bun bench/chain-paced.ts [--smoke] [--keys N] [--batch MS]`; `bun run bench`
 * includes it. `--batch MS` turns on settlement batching (Multicall3 aggregate3, MS-millisecond window).
 * Bench-only knobs: CHAIN_PACED_DB=:memory: (ledger in memory, isolates the pipeline from disk commits),
 * CHAIN_PACED_ONLY=128 (run one caller count), CHAIN_PACED_CPU_PROF=DIR (the server's CPU profile, written at its exit).
 * Server CPU per paid call is the server process's utime + stime over the window (/proc), client CPU the bench
 * process's (the official clients sign here); "late" counts calls that took more than one block + 0.5 s (they missed
 * the block after their request).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { startDevChain } from '../runtime/chain/devchain'
import { setEthBalance, usdcBalance } from '../runtime/chain/usdc'
import { startFaultProxy } from '../test/support/rpc-faults'
import { startChild } from './lib'
import { payingFetch } from '../test/support/paying-fetch'

const BLOCK_S = 2
const BODY = JSON.stringify({ text: 'benchmark', algo: 'sha256' })
/** CPU time (user + system, ms) a process has used, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}
const ownCpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
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
  const proxy = startFaultProxy(chain.rpcUrl)
  proxy.latency = { in: 25, out: 25 }
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
  )
  const base = `http://127.0.0.1:${child.port}`
  const url = `${base}/api/v1/hash-digest`
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }
  const pay = payingFetch(chain.payer.privateKey as Hex)
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
  try {
    // warm-up: first fee read, first nonce, JIT
    for (let i = 0; i < 2; i++) await (await pay(url, init)).arrayBuffer()
    for (const step of plan) {
      const [payee0, revenue0, wei0] = [
        await usdcBalance(chain.rpcUrl, chain.payee.address),
        await revenue(),
        await settlerWei(),
      ]
      proxy.calls.clear()
      const lat: number[] = []
      const statuses = new Map<number, number>()
      const reasons = new Map<string, number>()
      const t0 = performance.now()
      const [server0, client0] = [cpuMs(child.pid), ownCpuMs()]
      const deadline = t0 + ('seconds' in step ? step.seconds! * 1000 : Infinity)
      let budget = 'calls' in step ? step.calls! : Infinity
      await Promise.all(
        Array.from({ length: step.callers }, async () => {
          while (performance.now() < deadline && budget-- > 0) {
            const t = performance.now()
            const r = await pay(url, init).catch(() => null)
            const text = await r?.text()
            lat.push(performance.now() - t)
            statuses.set(r?.status ?? 0, (statuses.get(r?.status ?? 0) ?? 0) + 1)
            // an answer other than 200, by its error code and message (the server's own words, not its log)
            if (r && r.status !== 200) {
              let why = `${r.status}`
              try {
                const e = JSON.parse(text ?? '') as {
                  error?: { code?: string; message?: string } | string
                  message?: string
                }
                why +=
                  typeof e.error === 'object'
                    ? ` ${e.error.code}: ${e.error.message}`
                    : ` ${e.error ?? ''} ${e.message ?? ''}`
              } catch {}
              reasons.set(why, (reasons.get(why) ?? 0) + 1)
            }
          }
        }),
      )
      const secs = (performance.now() - t0) / 1000
      const ok = statuses.get(200) ?? 0
      const serverPer = (cpuMs(child.pid) - server0) / Math.max(1, ok)
      const clientPer = (ownCpuMs() - client0) / Math.max(1, ok)
      const late = lat.filter((ms) => ms > BLOCK_S * 1000 + 500).length
      const rpcPer = proxy.total() / Math.max(1, ok)
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
      for (const [why, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 5))
        verdicts.push(`${step.callers} caller(s): ${n}× ${why.slice(0, 200)}`)
      verdicts.push(
        `${step.callers} caller(s): ${rpcPer.toFixed(2)} RPC requests per paid call (target ≤ 3): ${rpcPer <= 3 ? 'met' : 'NOT met'}; every answer 200: ${others === 'none' ? 'yes' : 'NO'}; books exact: ${books ? 'yes' : 'NO'}`,
      )
    }
  } finally {
    await child.stop()
    proxy.stop()
    await chain.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return [
    `anvil \`--block-time ${BLOCK_S}\` behind an RPC proxy adding 25 ms each way; the server (child process, ${o.keys} settler key${o.keys > 1 ? 's' : ''}${o.batchMs ? `, batching with a ${o.batchMs} ms window` : ''}) settles through the proxy; the official \`@x402/fetch\` client pays \`hash-digest\` (${price} atomic USDC) from N concurrent callers in the bench process, each call = 402 challenge + paid retry. RPC requests are counted at the proxy (verification, settlement, fee and balance reads, everything) and divided by paid calls.`,
    '',
    '| callers | paid calls | paid/s | p50 | p99 | late (> block + 0.5 s) | CPU ms / paid call, server / client | RPC req / paid call | settler gas cost / paid call (gwei) | other answers | payee Δ = /stats revenue = 200s × price |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...verdicts.map((v) => `- ${v}`),
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
