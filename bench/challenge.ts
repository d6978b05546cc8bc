/**
 * The unpaid 402 against raw Bun.serve, in the same run: `bun bench/challenge.ts [--rounds 5] [--seconds 5]
 * [--cpu-prof DIR]`. The target (issue #38): the app's unpaid 402 at ≥ 0.6x raw Bun.serve answering a static 402 of
 * the same size: bench/servers/raw-402.ts answers every request with the very status, headers and body of the app's
 * 402 (sampled from it), after reading the body as the app does. On hash-digest, with three bodies: the same valid
 * body each time (its check is remembered), a different valid body each time (wrk's Lua hook; checked every time: a
 * JSON parse and a schema check), and `{}` (the price probe). Each round runs wrk (1 thread, 32 connections, after a
 * 1 s warm-up) on the baseline and on the app back to back for each body, so both see the same load on a shared
 * machine; a figure's ratio is the median over rounds of each round's app ÷ baseline. Server CPU per request (user +
 * system from /proc over the same runs) is less sensitive to other work on the machine, though contention inflates it
 * too. A third server, raw Bun.serve's small JSON POST answer, says what the 402's bytes cost on their own.
 * `--cpu-prof DIR`: the app writes a markdown CPU profile (bun --cpu-prof-md) into DIR when it stops.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { machine, startChild, wrk, type WrkResult } from './lib'

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1]! : fallback
}
const rounds = Number(arg('rounds', '5'))
const seconds = Number(arg('seconds', '5'))
const cpuProf = arg('cpu-prof', '')

const bun = process.execPath
const json = { 'content-type': 'application/json' }
const tmp = mkdtempSync(join(tmpdir(), 'bench-challenge-'))
// A new body for each request (wrk's Lua hook), so no check is ever remembered.
const fresh = join(tmp, 'fresh.lua')
writeFileSync(
  fresh,
  `wrk.method = "POST"\nwrk.headers["content-type"] = "application/json"\nlocal n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, nil, nil, '{"text":"hello ' .. n .. '"}')\nend\n`,
)
/** CPU time (user + system, µs) a process has used, from /proc (clock ticks of 10 ms). */
const cpuUs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10_000
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const headBytes = (status: number, h: Record<string, string>) =>
  `HTTP/1.1 ${status} Payment Required\r\n`.length +
  Object.entries(h).reduce((n, [k, v]) => n + k.length + v.length + 4, 2)

const loads = [loadavg()[0]]
const raw = await startChild([bun, 'bench/servers/raw.ts'])
const app = await startChild(
  [bun, ...(cpuProf ? ['--cpu-prof-md', `--cpu-prof-dir=${cpuProf}`] : []), 'bench/servers/app.ts'],
  {
    PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
    DATABASE_PATH: ':memory:',
    FACILITATOR_URL: 'http://127.0.0.1:9',
    ...(cpuProf ? { BENCH_CLOSE_ON_TERM: '1' } : {}),
  },
  30_000,
)
const at = `http://127.0.0.1:${app.port}/api/v1/hash-digest`
// The same bytes as the app's 402 (Date and Content-Length are the server's own), from raw Bun.serve.
const sample = await fetch(at, { method: 'POST', body: '{"text":"hello"}', headers: json })
const headers = Object.fromEntries([...sample.headers].filter(([k]) => !['content-length', 'date'].includes(k)))
const sampleBody = await sample.text()
const bytesFile = join(tmp, '402.json')
writeFileSync(bytesFile, JSON.stringify({ status: sample.status, headers, body: sampleBody }))
const raw402 = await startChild([bun, 'bench/servers/raw-402.ts'], { RAW_402_FILE: bytesFile })
// Every load below gets the 402 from the app (wrk counts a 402 as any other non-2xx answer).
for (const body of ['{"text":"hello"}', '{"text":"hello 1"}', '{}']) {
  const status = (await fetch(at, { method: 'POST', body, headers: json })).status
  if (status !== 402) throw new Error(`the app answered ${status} to ${body}, not 402`)
}

type Load = Parameters<typeof wrk>[1]
const load = (o: Partial<Load>): Load => ({ seconds, connections: 32, ...o })
const loads402: Array<[string, Load]> = [
  ['the same valid body each time', load({ method: 'POST', body: '{"text":"hello"}', headers: json })],
  ['a different valid body each time', load({ script: fresh })],
  ['body `{}`', load({ method: 'POST', body: '{}', headers: json })],
]
interface Run {
  r: WrkResult
  cpu: number
}
/** One wrk run after a 1 s warm-up, with the server's CPU per answered request. */
async function run(pid: number, url: string, o: Load): Promise<Run> {
  await wrk(url, { ...o, seconds: 1 })
  const before = cpuUs(pid)
  const r = await wrk(url, o)
  return { r, cpu: (cpuUs(pid) - before) / r.requests }
}

const runs = new Map<string, { base: Run[]; app: Run[] }>()
const rawRuns: Run[] = []
const raw402Posts: Run[] = []
try {
  for (let i = 0; i < rounds; i++) {
    for (const [label, o] of loads402) {
      const pair = runs.get(label) ?? { base: [], app: [] }
      runs.set(label, pair)
      pair.base.push(await run(raw402.pid, `http://127.0.0.1:${raw402.port}/`, o))
      pair.app.push(await run(app.pid, at, o))
    }
    rawRuns.push(await run(raw.pid, `http://127.0.0.1:${raw.port}/`, loads402[0]![1]))
    raw402Posts.push(runs.get(loads402[0]![0])!.base.at(-1)!)
    loads.push(loadavg()[0])
  }
} finally {
  await raw402.stop()
  await raw.stop()
  await app.stop()
}

const fmt = (xs: Run[]) =>
  `${Math.round(median(xs.map((x) => x.r.rps)))} req/s, p99 ${median(xs.map((x) => x.r.p99ms)).toFixed(2)} ms, ${median(xs.map((x) => x.cpu)).toFixed(1)} µs CPU`
console.log(
  `${machine()}; load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} over the run; ${rounds} rounds of ${seconds} s per figure; the 402: ${sample.status}, ${headBytes(sample.status, headers)} bytes of head before Date and Content-Length, ${sampleBody.length} bytes of body`,
)
console.log()
console.log(
  '| unpaid 402 on hash-digest | raw Bun.serve, the same 402 bytes | this server | ratio (median of rounds) | rounds | CPU per request, raw ÷ this | target |',
)
console.log('|---|---|---|---|---|---|---|')
for (const [label, { base, app: mine }] of runs) {
  const ratios = mine.map((m, i) => m.r.rps / base[i]!.r.rps)
  const cpu = mine.map((m, i) => base[i]!.cpu / m.cpu)
  console.log(
    `| ${label} | ${fmt(base)} | ${fmt(mine)} | **${median(ratios).toFixed(2)}x** | ${ratios.map((x) => x.toFixed(2)).join(' ')} | ${median(cpu).toFixed(2)}x | ≥ 0.6x |`,
  )
}
console.log()
const sizeRatios = raw402Posts.map((x, i) => x.r.rps / rawRuns[i]!.r.rps)
console.log(
  `Raw Bun.serve's small JSON answer to the same POST: ${fmt(rawRuns)}; the 402's bytes alone (raw Bun.serve with them ÷ without) ${median(sizeRatios).toFixed(2)}x.`,
)
