/**
 * Boot time of `bun runtime/index.ts` (the sources), of `npm start` (the binary scripts/bootstrap.mjs builds from the
 * sources and caches in .cache/start; `--no-npm-start` leaves it out) and of the single binary with --binary, measured as docs/benchmarks.md §5 does: the
 * server's own "booted in N ms" line, `FACILITATOR_URL` config, `:memory:` database, best of N boots; spawn to
 * listening, idle RSS and the first 402 answer (an unpaid call right after boot, where lazily loaded payment
 * modules are paid for) alongside. `--ref <commit>` measures other commits the same way, interleaved with this
 * tree (each commit exported to a temp dir that shares this node_modules), so before/after compare under one load.
 *
 *   bun bench/boot.ts [--runs 7] [--no-npm-start] [--binary] [--binary-extra <bun build flag>] [--ref <commit> ...] [--env KEY=VALUE ...]
 *
 * `--env` adds to the environment of every boot (e.g. `--env ADMIN_TOKEN=…` to include the console).
 * `--chain` boots with `RPC_URL` instead (self-settlement, issue #38): a dev chain (anvil with USDC, started once before
 * the boots and reported apart) behind an RPC proxy adding 25 ms each way, a funded settler key, a SQLite file; after
 * the first 402, the first paid call (official client, settled on that chain) with the server's CPU for it.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Hex } from 'viem'
import { BOOT_ENV, rss, startChild } from './lib'

const args = process.argv.slice(2)
const runs = Number(args[args.indexOf('--runs') + 1] || 7) || 7
const refs = args.flatMap((a, i) => (args[i - 1] === '--ref' ? [a] : []))
const root = resolve(import.meta.dir, '..')
const temp = mkdtempSync(join(tmpdir(), 'bench-boot-'))

interface Target {
  label: string
  cmd: string[]
  cwd: string
  /** A compiled binary: the probe goes in through BUN_OPTIONS (it takes no --preload argument). */
  binary?: boolean
}
// The probe (preloaded) reports the modules loaded and the CPU time spent when the server starts listening.
const probe = join(root, 'bench/servers/boot-probe.ts')
const start = [process.execPath, '--preload', probe, 'runtime/index.ts']
const targets: Target[] = [{ label: 'this tree, `bun runtime/index.ts` (the sources)', cmd: start, cwd: root }]
// `npm start`: the server binary scripts/bootstrap.mjs builds from the sources and caches (scripts/start-cache.mjs),
// built here first when the sources changed; its build time is reported apart.
if (!args.includes('--no-npm-start')) {
  const { startBinary } = await import('../scripts/start-cache.mjs')
  const bun = join(root, 'node_modules', '.bin', 'bun')
  const bin = await startBinary(root, bun, (line: string) => console.log(`[npm start's binary] ${line}`))
  if (bin)
    targets.push({
      label: 'this tree, `npm start` (the binary cached in .cache/start)',
      cmd: [bin],
      cwd: root,
      binary: true,
    })
}
const trees: Array<{ name: string; dir: string }> = [{ name: 'this tree', dir: root }]
for (const ref of refs) {
  const dir = join(temp, ref)
  const x = Bun.spawnSync(['sh', '-c', `mkdir -p '${dir}' && git archive '${ref}' | tar -x -C '${dir}'`], { cwd: root })
  if (x.exitCode !== 0) throw new Error(`git archive ${ref}: ${x.stderr}`)
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  targets.push({ label: `${ref}, \`bun runtime/index.ts\``, cmd: start, cwd: dir })
  trees.push({ name: ref, dir })
}
// With --binary, each tree's binary as its own package.json build script makes it; `--binary-extra <flag>` adds
// one of this tree built with that flag too.
let n = 0
async function addBinary(tree: { name: string; dir: string }, extra = '') {
  const build = (await Bun.file(join(tree.dir, 'package.json')).json()).scripts.build
    .split('&&')
    .pop()
    .trim()
    .split(/\s+/)
  const out = join(temp, `x402-api-${n++}`)
  const flags = build.slice(1).map((a: string, i: number, all: string[]) => (all[i - 1] === '--outfile' ? out : a))
  const b = Bun.spawnSync([process.execPath, ...flags, ...(extra ? [extra] : [])], { cwd: tree.dir })
  if (b.exitCode !== 0) throw new Error(b.stderr.toString())
  targets.push({
    label: `${tree.name}, the single binary${extra ? ` built with ${extra}` : ''}`,
    cmd: [out],
    cwd: temp,
    binary: true,
  })
}
if (args.includes('--binary')) for (const t of trees) await addBinary(t)
for (const [i, a] of args.entries()) if (args[i - 1] === '--binary-extra') await addBinary(trees[0], a)

let chainEnv: Record<string, string> = {}
/** With --chain: a fetch that pays (the official client, the dev chain's funded payer), for the first paid call. */
let pay: ((input: string, init?: RequestInit) => Promise<Response>) | undefined
let stopChain = async () => {}
if (args.includes('--chain')) {
  const { startDevChain } = await import('../runtime/chain/devchain')
  const { startFaultProxy } = await import('../test/support/rpc-faults')
  const t = performance.now()
  const chain = await startDevChain({ blockTime: 2 })
  console.log(`dev chain (anvil with USDC) started in ${(performance.now() - t).toFixed(0)} ms (not part of a boot)`)
  const proxy = startFaultProxy(chain.rpcUrl)
  proxy.latency = { in: 25, out: 25 }
  chainEnv = {
    FACILITATOR_URL: '',
    RPC_URL: proxy.url,
    SETTLER_PRIVATE_KEY: chain.settler.privateKey as Hex,
    PAY_TO: chain.payee.address,
    DATABASE_PATH: join(temp, 'boot.sqlite'),
  }
  const { payingFetch } = await import('../test/support/paying-fetch')
  pay = payingFetch(chain.payer.privateKey as Hex)
  stopChain = async () => {
    proxy.stop()
    await chain.stop()
  }
}
const env = {
  ...BOOT_ENV,
  ...chainEnv,
  ...Object.fromEntries(args.flatMap((a, i) => (args[i - 1] === '--env' ? [a.split(/=(.*)/s).slice(0, 2)] : []))),
}
const results = targets.map(() => ({
  own: [] as number[],
  wall: [] as number[],
  rssMb: [] as number[],
  first402: [] as number[],
  firstPaid: [] as number[],
  firstPaidCpu: [] as number[],
  cpuMs: [] as number[],
  modules: [] as number[],
}))
const loads: number[] = []
try {
  for (let i = 0; i < runs; i++) {
    for (const [k, t] of targets.entries()) {
      loads.push(loadavg()[0])
      const started = performance.now()
      const child = await startChild(
        t.cmd,
        t.binary ? { ...env, BUN_OPTIONS: `--preload ${probe}` } : env,
        60_000,
        t.cwd,
      )
      results[k].wall.push(performance.now() - started)
      results[k].own.push(Number(child.lines.join(' ').match(/booted in (\d+) ms/)?.[1]))
      results[k].rssMb.push(rss(child.pid).nowMb)
      const probed = child.lines.find((l) => l.startsWith('BOOT-PROBE '))
      if (probed) {
        const p = JSON.parse(probed.slice('BOOT-PROBE '.length)) as { modules: number; cpuMs: number }
        results[k].cpuMs.push(p.cpuMs)
        results[k].modules.push(p.modules)
      }
      const asked = performance.now()
      const r = await fetch(`http://127.0.0.1:${child.port}/api/v1/slugify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"text":"first call"}',
      })
      await r.arrayBuffer()
      if (r.status !== 402) throw new Error(`${t.label}: the first unpaid call answered ${r.status}`)
      results[k].first402.push(performance.now() - asked)
      if (pay) {
        // The first paid call (settled on the dev chain, 2 s blocks): its time and the server's CPU for it.
        const cpu0 = cpuMs(child.pid)
        const paidAt = performance.now()
        const p = await pay(`http://127.0.0.1:${child.port}/api/v1/slugify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"text":"first paid call"}',
        })
        await p.arrayBuffer()
        if (p.status !== 200) throw new Error(`${t.label}: the first paid call answered ${p.status}`)
        results[k].firstPaid.push(performance.now() - paidAt)
        results[k].firstPaidCpu.push(cpuMs(child.pid) - cpu0)
      }
      await child.stop()
    }
  }
} finally {
  await stopChain()
  rmSync(temp, { recursive: true, force: true })
}
/** A process's CPU time (user + system) so far, from /proc. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * 10 // clock ticks of 10 ms
}
const min = (xs: number[]) => Math.min(...xs)
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(
  `${runs} boots each, interleaved; load average (1 min) ${min(loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
)
for (const [k, t] of targets.entries()) {
  const r = results[k]
  console.log(
    `- ${t.label}: booted in ${min(r.own)} ms by its own clock (best; median ${med(r.own)}), ${min(r.wall).toFixed(0)} ms from spawn to listening; idle RSS ${med(r.rssMb).toFixed(0)} MB; first 402 in ${med(r.first402).toFixed(0)} ms (median)${r.firstPaid.length ? `; first paid call ${med(r.firstPaid).toFixed(0)} ms, server CPU ${med(r.firstPaidCpu)} ms (median)` : ''}${r.cpuMs.length ? `; at listening: CPU ${min(r.cpuMs)} ms best (median ${med(r.cpuMs)}), ${med(r.modules)} modules` : ''}`,
  )
}
