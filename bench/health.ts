/**
 * `GET /health` against raw Bun.serve answering a JSON GET, alone and interleaved (issue #38: target ≥ 0.85x):
 * `bun bench/health.ts [--rounds 4] [--seconds 4] [--ref <commit> ...]`. Each round measures raw, then this tree's
 * app (and each `--ref` tree's, exported with `git archive`) with wrk (32 connections), so a loaded machine weighs on
 * every server alike; the ratio is per round, and the median of the rounds is printed. The server's CPU per request
 * (from /proc) is printed too, and raw's CPU per request ÷ the server's, per round (median): on a shared machine both
 * move less with other work than req/s does. The load average is printed at the start and at the end.
 */
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { median, startChild, wrk, type Child } from './lib'

const args = process.argv.slice(2)
const flag = (name: string, d: number) => Number(args[args.indexOf(name) + 1] ?? d) || d
const rounds = args.includes('--rounds') ? flag('--rounds', 4) : 4
const seconds = args.includes('--seconds') ? flag('--seconds', 4) : 4
const refs = args.flatMap((a, i) => (args[i - 1] === '--ref' ? [a] : []))
const root = resolve(import.meta.dir, '..')
const bun = process.execPath
const cpuUs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10_000
}
const appEnv = {
  PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  DATABASE_PATH: ':memory:',
  FACILITATOR_URL: 'http://127.0.0.1:9',
}
const servers: Array<{ name: string; child: Child; path: string }> = [
  { name: 'raw Bun.serve', child: await startChild([bun, 'bench/servers/raw.ts']), path: '/' },
  { name: 'this tree', child: await startChild([bun, 'bench/servers/app.ts'], appEnv), path: '/health' },
]
// A second baseline: raw Bun.serve answering with the very bytes of the app's /health (its 8 headers and body), which
// splits the ratio into what the answer's size costs and what the app's own work costs.
{
  const sample = await fetch(`http://127.0.0.1:${servers[1]!.child.port}/health`)
  const headers = Object.fromEntries([...sample.headers].filter(([k]) => !['content-length', 'date'].includes(k)))
  const file = join(mkdtempSync(join(tmpdir(), 'bench-health-')), 'health.json')
  writeFileSync(file, JSON.stringify({ status: sample.status, headers, body: await sample.text() }))
  servers.splice(1, 0, {
    name: "raw Bun.serve, the app's /health bytes",
    child: await startChild([bun, 'bench/servers/raw-402.ts'], { RAW_402_FILE: file }),
    path: '/',
  })
}
for (const ref of refs) {
  const dir = join(mkdtempSync(join(tmpdir(), 'bench-health-')), ref)
  const x = Bun.spawnSync(['sh', '-c', `mkdir -p '${dir}' && git archive '${ref}' | tar -x -C '${dir}'`], { cwd: root })
  if (x.exitCode !== 0) throw new Error(`git archive ${ref}: ${x.stderr}`)
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  servers.push({
    name: ref,
    child: await startChild([bun, 'bench/servers/app.ts'], appEnv, 20_000, dir),
    path: '/health',
  })
}
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const loadAtStart = loadAverage()
const o = { seconds, connections: 32 }
const rows = new Map(servers.map((s) => [s.name, { rps: [] as number[], cpu: [] as number[] }]))
try {
  for (const s of servers) await wrk(`http://127.0.0.1:${s.child.port}${s.path}`, { ...o, seconds: 2 })
  for (let r = 0; r < rounds; r++)
    for (const s of servers) {
      const before = cpuUs(s.child.pid)
      const w = await wrk(`http://127.0.0.1:${s.child.port}${s.path}`, o)
      rows.get(s.name)!.rps.push(w.rps)
      rows.get(s.name)!.cpu.push((cpuUs(s.child.pid) - before) / w.requests)
    }
  const raw = rows.get('raw Bun.serve')!
  console.log(`load average ${loadAtStart} at the start, ${loadAverage()} at the end`)
  console.log(
    '| server | req/s (median) | ratio to raw, per round | median ratio | CPU µs / request | CPU per request, raw ÷ this (median of rounds) |',
  )
  console.log('|---|---|---|---|---|---|')
  for (const s of servers) {
    const row = rows.get(s.name)!
    const ratios = row.rps.map((v, i) => v / raw.rps[i]!)
    const cpuRatios = row.cpu.map((v, i) => raw.cpu[i]! / v)
    console.log(
      `| ${s.name} | ${Math.round(median(row.rps))} | ${ratios.map((x) => x.toFixed(2)).join(' / ')} | **${median(ratios).toFixed(2)}x** | ${median(row.cpu).toFixed(1)} | ${median(cpuRatios).toFixed(2)}x |`,
    )
  }
} finally {
  for (const s of servers) await s.child.stop()
}
