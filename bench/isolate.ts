/**
 * The cost of running a handler in the worker pool (runtime/isolate) instead of on the main thread: a cheap utility
 * (slugify) called N times one after another, and N times 8 at a time; then `/health` over HTTP alone, while one
 * handler spins in a worker and while 16 do. `bun bench/isolate.ts [N]`.
 */
import { HandlerPool } from '../runtime/isolate'
import { entries } from '../test/support/entries'
import { createLogger } from '../runtime/log'
import { testContext } from '../runtime/sdk'
import { prepareInput } from '../runtime/input/validate'
import { withHostile } from '../test/support/hostile-service'
import { post, startServer } from '../test/support/server'
import { until } from '../test/support/until'

const slug = 'slugify'
const n = Number(process.argv[2] ?? 5000)
const e = entries.find((x) => x.folder === slug)!
const input = prepareInput(e.manifest.input, { text: 'Héllo Wörld, this is a fairly long title for a slug' })
const ctx = () => testContext({ service: slug, tier: 'flat' })
const pool = new HandlerPool({ workers: 2, maxWorkers: 2, memoryMb: 256, answerMb: 16 }, createLogger('silent'))
const wide = new HandlerPool({ workers: 2, maxWorkers: 8, memoryMb: 256, answerMb: 16 }, createLogger('silent'))
const target = { slug, upstreams: [] }

async function time(label: string, call: () => Promise<unknown>, parallel = 1) {
  for (let i = 0; i < 200; i++) await call() // warm-up: JIT, the handler's module loaded in each worker
  const t = performance.now()
  for (let i = 0; i < n / parallel; i++) await Promise.all(Array.from({ length: parallel }, call))
  const ms = performance.now() - t
  return `| ${label} | ${Math.round((n / ms) * 1000)} | ${((ms * 1000) / n).toFixed(1)} |`
}

const rows = [
  `| ${slug}, ${n} calls | calls per second | mean µs per call |`,
  '|---|---|---|',
  await time('inline, one at a time', async () => e.handler!(input as never, ctx())),
  await time('pool, one at a time', () => pool.run(target, input, ctx())),
  await time('inline, 8 at a time', async () => e.handler!(input as never, ctx()), 8),
  await time('pool (2 workers), 8 at a time', () => pool.run(target, input, ctx()), 8),
  await time('pool (up to 8 workers), 8 at a time', () => wide.run(target, input, ctx()), 8),
]
pool.close()
wide.close()
console.log(rows.join('\n'))

/** `/health` latency over real HTTP for `ms`, one request at a time: p50 and p99 in ms. */
async function healthFor(url: string, ms: number) {
  const times: number[] = []
  for (const end = performance.now() + ms; performance.now() < end; ) {
    const t = performance.now()
    await (await fetch(`${url}/health`)).arrayBuffer()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2)
  return `${times.length} requests, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`
}
// The free demo set to a handler that spins until its 3 s deadline: /health alone, while one spins, while 16 do.
const s = await startServer({ entries: withHostile(), env: { DEMO_SERVICE: 'test-spin', DEMO_DAILY_LIMIT: '100' } })
console.log(`\n/health alone: ${await healthFor(s.url, 2000)}`)
for (const n of [1, 16]) {
  const spinning = Array.from({ length: n }, () => post(`${s.url}/api/demo/explain`, { code: 'x' }))
  await until(() => s.booted.pool.size.busy === n)
  console.log(`/health while ${n} handler(s) spin: ${await healthFor(s.url, 2000)}`)
  console.log(`the spinning calls: ${(await Promise.all(spinning)).map((r) => r.status).join(' ')}`)
}
await s.stop()
process.exit(0)
