/** Shared benchmark plumbing: child servers, wrk runs, medians, RSS. Every figure is compared within one run. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Child {
  port: number
  pid: number
  lines: string[]
  /** What the process wrote to stderr (also passed through to this process's stderr). */
  stderr: string[]
  stop(): Promise<void>
}

/** Starts a server process and waits for a line `PORT n` (or `Listening on http://host:n`). */
export async function startChild(
  cmd: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 20_000,
  cwd?: string,
): Promise<Child> {
  const proc = Bun.spawn(cmd, {
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  })
  const lines: string[] = []
  const stderr: string[] = []
  ;(async () => {
    for await (const chunk of proc.stderr) {
      stderr.push(new TextDecoder().decode(chunk))
      process.stderr.write(chunk)
    }
  })()
  const reader = proc.stdout.getReader()
  const decoder = new TextDecoder()
  let buf = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd.join(' ')} did not start: ${lines.join(' | ')}`)), timeoutMs)
    ;(async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return reject(new Error(`${cmd.join(' ')} exited: ${lines.join(' | ')}`))
        buf += decoder.decode(value)
        let i
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i)
          buf = buf.slice(i + 1)
          lines.push(line)
          const m = line.match(/^PORT (\d+)/) ?? line.match(/Listening on http:\/\/[^:]+:(\d+)/)
          if (m) {
            clearTimeout(timer)
            resolve(Number(m[1]))
            ;(async () => {
              for (;;) {
                const r = await reader.read()
                if (r.done) return
                lines.push(decoder.decode(r.value))
              }
            })()
            return
          }
        }
      }
    })()
  })
  return {
    port,
    pid: proc.pid,
    lines,
    stderr,
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}

/** Env for timing a boot: no chain (a facilitator that is never called), no database file, no logs. */
export const BOOT_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  FACILITATOR_URL: 'http://127.0.0.1:9',
  DATABASE_PATH: ':memory:',
  LOG_LEVEL: 'silent',
}

export interface WrkResult {
  rps: number
  p50ms: number
  p99ms: number
  requests: number
  non2xx: number
}

const dir = mkdtempSync(join(tmpdir(), 'bench-'))

/** Runs wrk with fixed connections for `seconds`; POST bodies and headers go through a Lua script. */
export async function wrk(
  url: string,
  o: {
    seconds: number
    connections: number
    method?: string
    body?: string
    headers?: Record<string, string>
    script?: string
  },
): Promise<WrkResult> {
  let script = o.script
  if (!script && (o.method || o.body || o.headers)) {
    script = join(dir, `s${Math.random().toString(36).slice(2)}.lua`)
    const hs = Object.entries(o.headers ?? {})
      .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
      .join('\n')
    writeFileSync(
      script,
      `wrk.method = ${JSON.stringify(o.method ?? 'GET')}\n${o.body !== undefined ? `wrk.body = ${JSON.stringify(o.body)}\n` : ''}${hs}\n`,
    )
  }
  const args = [
    'wrk',
    '-t',
    '1',
    '-c',
    String(o.connections),
    '-d',
    `${o.seconds}s`,
    '--latency',
    ...(script ? ['-s', script] : []),
    url,
  ]
  const p = Bun.spawn(args, { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(p.stdout).text()
  await p.exited
  const ms = (label: string) => {
    const m = out.match(new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`))
    if (!m) return NaN
    const v = Number(m[1])
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v
  }
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN)
  const requests = Number(out.match(/(\d+) requests in/)?.[1] ?? 0)
  const non2xx = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0)
  if (!Number.isFinite(rps)) throw new Error(`wrk failed: ${out}`)
  return { rps, p50ms: ms('50'), p99ms: ms('99'), requests, non2xx }
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** Median of `runs` wrk runs (after one warm-up run). */
export async function measure(
  url: string,
  o: Parameters<typeof wrk>[1],
  runs: number,
  warmupSeconds: number,
): Promise<WrkResult> {
  await wrk(url, { ...o, seconds: warmupSeconds })
  const rs: WrkResult[] = []
  for (let i = 0; i < runs; i++) rs.push(await wrk(url, o))
  return {
    rps: median(rs.map((r) => r.rps)),
    p50ms: median(rs.map((r) => r.p50ms)),
    p99ms: median(rs.map((r) => r.p99ms)),
    requests: rs.reduce((a, r) => a + r.requests, 0),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
  }
}

/** Peak and current resident set size of a process, in MB (from /proc). */
export function rss(pid: number): { peakMb: number; nowMb: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (k: string) => Number(s.match(new RegExp(`${k}:\\s+(\\d+)`))?.[1] ?? 0)
  return { peakMb: kb('VmHWM') / 1024, nowMb: kb('VmRSS') / 1024 }
}

export const machine = () => {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s+:\s+(.*)/)?.[1] ?? 'unknown CPU'
  return `${navigator.hardwareConcurrency} cores, ${cpu}, Bun ${Bun.version}`
}
