/**
 * Prometheus for the tests: the text exposition read back (`sample`), and a real Prometheus server (Debian's
 * `prometheus`, installed by scripts/ensure-prometheus.sh) run as a child on a free loopback port with a temp
 * config and a temp storage directory (never in the work tree), queried through its HTTP API.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { until } from './until'

/** True when `prometheus` and `promtool` are on PATH (else the tests that need them skip, saying why). */
export const hasPrometheus = (): boolean => Boolean(Bun.which('prometheus') && Bun.which('promtool'))

/** Every sample of an exposition: `name{a="x",b="y"}` (labels sorted) -> value. */
export function samples(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/)
    if (!m) throw new Error(`not an exposition line: ${line}`)
    const labels = [...(m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, k, v]) => `${k}="${v}"`)
      .sort()
    out.set(`${m[1]}{${labels.join(',')}}`, Number(m[4]))
  }
  return out
}

/** One sample's value (0 when absent: a counter never incremented). */
export function sample(all: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  const key = `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',')}}`
  return all.get(key) ?? 0
}

/** A free loopback port (bound, then released). */
export function freePort(): number {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}

export interface RunningPrometheus {
  url: string
  /** An instant query's result vector. */
  query(q: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>
  /** The scrape targets' health. */
  targets(): Promise<Array<{ health: string; lastError: string; scrapeUrl: string }>>
  stop(): Promise<void>
}

/**
 * Starts Prometheus scraping `target` (host:port) every second at `path`, with `bearer` as its Authorization
 * credentials when given. Resolves once its API answers.
 */
export async function startPrometheus(o: {
  target: string
  path?: string
  bearer?: string
}): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'x402-prometheus-'))
  const config = join(dir, 'prometheus.yml')
  const auth = o.bearer ? `\n    authorization:\n      type: Bearer\n      credentials: '${o.bearer}'` : ''
  writeFileSync(
    config,
    `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: x402\n    metrics_path: ${o.path ?? '/metrics'}${auth}\n    static_configs:\n      - targets: ['${o.target}']\n`,
  )
  const port = freePort()
  const proc = Bun.spawn(
    [
      'prometheus',
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdout: 'ignore', stderr: 'pipe', cwd: dir },
  )
  const url = `http://127.0.0.1:${port}`
  const api = async (path: string) => {
    const res = await fetch(url + path)
    const body = (await res.json()) as { status: string; data: any; error?: string }
    if (body.status !== 'success') throw new Error(`prometheus ${path}: ${body.error}`)
    return body.data
  }
  const stop = async () => {
    proc.kill()
    await proc.exited
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await until(
      () =>
        fetch(`${url}/-/ready`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
      'prometheus ready',
    )
  } catch (e) {
    await stop()
    throw e
  }
  return {
    url,
    query: async (q) => (await api(`/api/v1/query?query=${encodeURIComponent(q)}`)).result,
    targets: async () => (await api('/api/v1/targets')).activeTargets,
    stop,
  }
}
