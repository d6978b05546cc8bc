/**
 * What operations cost (runtime/ops): `bun bench/tracing.ts` (`--smoke`: tiny counts). Two parts:
 * 1. Over HTTP (wrk, as section 1–2 of `bun run bench`): GET /health and the unpaid 402 against raw Bun.serve, with
 *    nothing configured (the default), with metrics on (ADMIN_TOKEN: the HTTP status counter on every answer) and
 *    with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT, spans sent to a raw Bun.serve as collector), plus the server's
 *    CPU time per unpaid 402. Neither request is a paid call, so tracing adds no span to them.
 * 2. In process: the paid call's operations wrapper (ops/paid-call.ts around `admit` and the hold) on a scripted
 *    admission and hold (no chain, no database: only the wrapper's own work), per call: no wrapper, the wrapper with
 *    tracing off (metrics only), and with tracing on (four spans per call, batched and exported over OTLP/HTTP).
 */
import { readFileSync } from 'node:fs'
import type { PaidRequest, PaymentHold } from '../runtime/pay/server/doors'
import { observing } from '../runtime/ops/metrics'
import { observeAdmit } from '../runtime/ops/paid-call'
import { startTracing, stopTracing, tracing } from '../runtime/ops/tracing'
import { createLogger } from '../runtime/log'
import { measure, startChild, wrk, type WrkResult } from './lib'

const smoke = process.argv.includes('--smoke')
/** `--in-process`: part 2 only. */
const http = !process.argv.includes('--in-process')
const S = smoke ? { seconds: 1, runs: 1, warmup: 1, calls: 2_000 } : { seconds: 5, runs: 3, warmup: 2, calls: 50_000 }
const bun = process.execPath
const o = { seconds: S.seconds, connections: 32 }
const post = { ...o, method: 'POST', body: '{"text":"hello"}', headers: { 'content-type': 'application/json' } }
const fmt = (r: WrkResult) => `${Math.round(r.rps)} req/s, p99 ${r.p99ms.toFixed(2)} ms`
const cpuUs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10_000
}
async function cpuPerRequest(pid: number, url: string, opts: Parameters<typeof wrk>[1]) {
  await wrk(url, { ...opts, seconds: 1 })
  const before = cpuUs(pid)
  const r = await wrk(url, opts)
  return (cpuUs(pid) - before) / r.requests
}

class Skip extends Error {}
const appEnv = {
  PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  DATABASE_PATH: ':memory:',
  FACILITATOR_URL: 'http://127.0.0.1:9',
}
const raw = await startChild([bun, 'bench/servers/raw.ts'])
const collector = await startChild([bun, 'bench/servers/raw.ts'])
const variants: Array<[string, Record<string, string>]> = [
  ['nothing configured (default)', {}],
  ['metrics on (ADMIN_TOKEN)', { ADMIN_TOKEN: 'bench-ops-admin-token-0123456789abcdef' }],
  ['tracing on (OTEL_EXPORTER_OTLP_ENDPOINT)', { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}` }],
]
console.log(`# Operations cost${smoke ? ' (smoke run: figures not meaningful)' : ''}\n`)
if (http)
  console.log(
    '| configuration | GET /health vs raw | unpaid 402 vs raw | server CPU per /health | per unpaid 402 |\n|---|---|---|---|---|',
  )
try {
  if (!http) throw new Skip()
  const rawGet = await measure(`http://127.0.0.1:${raw.port}/`, o, S.runs, S.warmup)
  const rawPost = await measure(`http://127.0.0.1:${raw.port}/`, post, S.runs, S.warmup)
  for (const [name, env] of variants) {
    const app = await startChild([bun, 'bench/servers/app.ts'], { ...appEnv, ...env })
    try {
      const health = await measure(`http://127.0.0.1:${app.port}/health`, o, S.runs, S.warmup)
      const challenge = await measure(`http://127.0.0.1:${app.port}/api/v1/hash-digest`, post, S.runs, S.warmup)
      const cpu = await cpuPerRequest(app.pid, `http://127.0.0.1:${app.port}/api/v1/hash-digest`, post)
      const cpuHealth = await cpuPerRequest(app.pid, `http://127.0.0.1:${app.port}/health`, o)
      console.log(
        `| ${name} | ${fmt(health)}: **${(health.rps / rawGet.rps).toFixed(2)}x** | ${fmt(challenge)}: **${(challenge.rps / rawPost.rps).toFixed(2)}x** | ${cpuHealth.toFixed(0)} µs | ${cpu.toFixed(0)} µs |`,
      )
    } finally {
      await app.stop()
    }
  }
} catch (e) {
  if (!(e instanceof Skip)) throw e
} finally {
  await raw.stop()
}

// 2. The paid call's wrapper in process.
const header = btoa(
  JSON.stringify({
    x402Version: 2,
    accepted: { scheme: 'exact', network: 'eip155:8453', amount: '1000' },
    payload: { authorization: { from: '0x0000000000000000000000000000000000000001', value: '1000' } },
  }),
)
const hold: PaymentHold = {
  keep: async () => {},
  settle: async () => ({
    ok: true,
    headerName: 'payment-response',
    header: '',
    response: { success: true, transaction: '0xabc', network: 'eip155:8453', payer: '0x01' },
  }),
  failed: async () => {},
  release: async () => {},
}
const request = (i: number) =>
  ({ svc: { slug: 'bench' }, tier: 'flat', requestId: `req_${i}`, payment: { header, version: 2 } }) as PaidRequest
const admit = async () => ({
  kind: 'admitted' as const,
  call: { request: request(0), input: {}, headers: {}, hold, payer: '0xbench' },
})
async function perCallOnce(wrapped: boolean): Promise<number> {
  const t0 = performance.now()
  for (let i = 0; i < S.calls; i++) {
    const r = request(i)
    const a = wrapped ? await observeAdmit(r, admit) : await admit()
    if (a.kind !== 'admitted') throw new Error('bench: not admitted')
    await a.call.hold.keep('')
    await a.call.hold.settle()
  }
  return ((performance.now() - t0) * 1000) / S.calls
}
/** The fastest of three rounds (the machine's other work only ever adds time). */
async function perCall(wrapped: boolean): Promise<number> {
  const rounds = [await perCallOnce(wrapped), await perCallOnce(wrapped), await perCallOnce(wrapped)]
  return Math.min(...rounds)
}
await perCall(true) // warm-up
const base = await perCall(false)
const none = await perCall(true)
observing.on = true // as boot sets it when metrics are configured
const off = await perCall(true)
await startTracing(
  { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}` },
  createLogger('silent'),
  'bench',
)
await perCall(true)
const on = await perCall(true)
await tracing()?.flush()
await stopTracing()
await collector.stop()
console.log(
  `\nThe paid call's operations wrapper, in process (${S.calls} scripted calls each, no chain, no database):\n`,
)
console.log('| | per paid call |')
console.log('|---|---|')
console.log(`| admission + hold, no wrapper | ${base.toFixed(2)} µs |`)
console.log(`| with the wrapper, nothing configured | ${none.toFixed(2)} µs (+${(none - base).toFixed(2)} µs) |`)
console.log(`| with the wrapper, tracing off (metrics only) | ${off.toFixed(2)} µs (+${(off - base).toFixed(2)} µs) |`)
console.log(
  `| with the wrapper, tracing on (4 spans, exported) | ${on.toFixed(2)} µs (+${(on - base).toFixed(2)} µs) |`,
)
