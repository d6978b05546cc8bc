/**
 * The unpaid 402 now that the body is checked before it (issue #27), against raw Bun.serve, alone:
 * `bun bench/challenge.ts`. Same load as section 1–2 of `bun run bench` (wrk, 32 connections, median of 3 × 5 s
 * after a 2 s warm-up), on hash-digest with: the bench's usual repeated valid body (its check is remembered), a
 * different valid body on every request (checked every time: JSON parse and schema validation), and `{}`. A second
 * baseline, raw Bun.serve answering with the very bytes of the app's 402 (bench/servers/raw-402.ts), splits the
 * ratio into what the 402's size costs (its ~5.5 KB PAYMENT-REQUIRED header: the spec fields and the Bazaar
 * discovery extension with the input schema) and what the app's own work costs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { measure, startChild, wrk, type WrkResult } from './lib'

const bun = process.execPath
const o = { seconds: 5, connections: 32 }
const json = { 'content-type': 'application/json' }
// A new body for each request (wrk's Lua hook), so no check is ever remembered.
const fresh = join(mkdtempSync(join(tmpdir(), 'bench-challenge-')), 'fresh.lua')
writeFileSync(
  fresh,
  `wrk.method = "POST"\nwrk.headers["content-type"] = "application/json"\nlocal n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, nil, nil, '{"text":"hello ' .. n .. '"}')\nend\n`,
)
/** CPU time (user + system, µs) a process has used, from /proc (clock ticks of 10 ms). */
const cpuUs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10_000
}
/**
 * The server's CPU time per answered request over one 5 s run after a warm-up: less sensitive than req/s to other
 * work on the machine, though contention still inflates it.
 */
async function cpuPerRequest(pid: number, url: string, opts: Parameters<typeof wrk>[1]) {
  await wrk(url, { ...opts, seconds: 2 })
  const before = cpuUs(pid)
  const r = await wrk(url, opts)
  return (cpuUs(pid) - before) / r.requests
}
const bytesOf = (h: Record<string, string>) => Object.entries(h).reduce((n, [k, v]) => n + k.length + v.length + 4, 0)
const fmt = (r: WrkResult) => `${Math.round(r.rps)} req/s, p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms`

const raw = await startChild([bun, 'bench/servers/raw.ts'])
const app = await startChild([bun, 'bench/servers/app.ts'], {
  PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  DATABASE_PATH: ':memory:',
  FACILITATOR_URL: 'http://127.0.0.1:9',
})
try {
  const at = `http://127.0.0.1:${app.port}/api/v1/hash-digest`
  const rawPost = await measure(
    `http://127.0.0.1:${raw.port}/`,
    { ...o, method: 'POST', body: '{"text":"hello"}', headers: json },
    3,
    2,
  )
  // The same bytes as the app's 402, from raw Bun.serve.
  const sample = await fetch(at, { method: 'POST', body: '{"text":"hello"}', headers: json })
  const bytes = join(mkdtempSync(join(tmpdir(), 'bench-challenge-')), '402.json')
  const headers = Object.fromEntries([...sample.headers].filter(([k]) => !['content-length', 'date'].includes(k)))
  writeFileSync(bytes, JSON.stringify({ status: sample.status, headers, body: await sample.text() }))
  const raw402 = await startChild([bun, 'bench/servers/raw-402.ts'], { RAW_402_FILE: bytes })
  const raw402Post = await measure(
    `http://127.0.0.1:${raw402.port}/`,
    { ...o, method: 'POST', body: '{"text":"hello"}', headers: json },
    3,
    2,
  )
  await raw402.stop()
  // wrk's Lua hook costs wrk time too: fresh bodies are compared with raw Bun.serve under the same script.
  const rawFresh = await measure(`http://127.0.0.1:${raw.port}/`, { ...o, script: fresh }, 3, 2)
  const rows: Array<[string, WrkResult, WrkResult]> = [
    [
      'unpaid 402, the same valid body each time',
      await measure(at, { ...o, method: 'POST', body: '{"text":"hello"}', headers: json }, 3, 2),
      rawPost,
    ],
    ['unpaid 402, a different valid body each time', await measure(at, { ...o, script: fresh }, 3, 2), rawFresh],
    ['unpaid 402, body `{}`', await measure(at, { ...o, method: 'POST', body: '{}', headers: json }, 3, 2), rawPost],
  ]
  console.log('| figure | raw Bun.serve JSON POST | this server | ratio | target |')
  console.log('|---|---|---|---|---|')
  for (const [label, r, base] of rows)
    console.log(`| ${label} | ${fmt(base)} | ${fmt(r)} | **${(r.rps / base.rps).toFixed(2)}x** | ≥ 0.6x |`)
  console.log()
  console.log(
    `Raw Bun.serve answering with the 402's own bytes (${sample.status}, ${bytesOf(headers)} bytes of headers): ${fmt(raw402Post)}, ${(raw402Post.rps / rawPost.rps).toFixed(2)}x of its JSON POST: the size of the 402 alone. The app's unpaid 402 (same valid body) against it: ${(rows[0][1].rps / raw402Post.rps).toFixed(2)}x: the app's own work.`,
  )
  const valid = { ...o, method: 'POST', body: '{"text":"hello"}', headers: json }
  const cpu = {
    raw: await cpuPerRequest(raw.pid, `http://127.0.0.1:${raw.port}/`, valid),
    same: await cpuPerRequest(app.pid, at, valid),
    fresh: await cpuPerRequest(app.pid, at, { ...o, script: fresh }),
    empty: await cpuPerRequest(app.pid, at, { ...o, method: 'POST', body: '{}', headers: json }),
  }
  console.log()
  console.log(
    `Server CPU per request: raw Bun.serve ${cpu.raw.toFixed(1)} µs; unpaid 402 with the same body ${cpu.same.toFixed(1)} µs (${(cpu.raw / cpu.same).toFixed(2)}x), a fresh body ${cpu.fresh.toFixed(1)} µs (${(cpu.raw / cpu.fresh).toFixed(2)}x), \`{}\` ${cpu.empty.toFixed(1)} µs (${(cpu.raw / cpu.empty).toFixed(2)}x).`,
  )
} finally {
  await raw.stop()
  await app.stop()
}
