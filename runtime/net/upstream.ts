/**
 * Live-data upstream clients (`ctx.upstream(name)`): GET JSON with a deadline, a bounded in-memory LRU cache with a
 * per-call TTL, and in-flight de-duplication (identical concurrent calls share one request).
 *
 * Failures are `ServiceError`s built by `upstreamError(name, ...)`, so they carry `upstream` and `retryable`:
 *  - deadline → 504 UPSTREAM_TIMEOUT (retryable);
 *  - connection failure, 5xx, 408, 429 → 502 (retryable; a 429's Retry-After is passed on);
 *  - another non-2xx not in `allowStatus` → 502 (not retryable);
 *  - a body that is not JSON, or larger than `maxBodyBytes` → 502 (retryable).
 * Only answers (2xx or `allowStatus`) are cached; failures never are.
 *
 * A base URL may hold `{placeholder}`s (e.g. `https://{lang}.wikipedia.org/api/rest_v1`): they are filled from the
 * query parameters of the same name, which are then not sent as query parameters. Values must match
 * `^[a-z0-9-]{1,32}$` (no host injection).
 */
import type { Attribution, Upstream } from '../sdk/context'
import { ServiceError, upstreamError } from '../sdk/errors'
import { upstreamEvent } from './upstream-health'

export interface UpstreamConfig {
  url: string
  key?: string
  timeoutMs?: number
  /** Query parameter carrying `key`. */
  keyParam?: string
  /** Header carrying `key` (wins over keyParam). */
  keyHeader?: string
  /** The declared attribution (services/upstreams.ts); an operator-only upstream is attributed to its host. */
  attribution?: Attribution
}

export interface CreateUpstreamsOptions {
  userAgent?: string
  /** LRU capacity (entries, across all upstreams). Default 1000. */
  maxEntries?: number
  /** Bodies larger than this are refused (502). Default 5 MiB. */
  maxBodyBytes?: number
  /** Clock for cache expiry (tests). Default Date.now. */
  clock?: () => number
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 8000
/**
 * Only for clients built without a user agent (tests). A server always passes `config.upstreamUserAgent`:
 * UPSTREAM_USER_AGENT, else the provider name with PUBLIC_URL or the provider website (runtime/config/server.ts).
 */
export const DEFAULT_UPSTREAM_USER_AGENT = 'x402-agent-api/1.0 (pay-per-request live-data utilities)'

type Answer = { status: number; data: unknown }

/** A small LRU map with per-entry expiry. */
export class TtlLru<V> {
  private map = new Map<string, { expires: number; value: V }>()
  constructor(
    readonly maxEntries = 1000,
    private clock: () => number = Date.now,
  ) {}
  get(key: string): V | undefined {
    const hit = this.map.get(key)
    if (!hit) return undefined
    if (hit.expires <= this.clock()) {
      this.map.delete(key)
      return undefined
    }
    this.map.delete(key)
    this.map.set(key, hit)
    return hit.value
  }
  set(key: string, value: V, ttlMs: number): void {
    if (!(ttlMs > 0)) return
    this.map.delete(key)
    this.map.set(key, { expires: this.clock() + ttlMs, value })
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string)
  }
  get size(): number {
    return this.map.size
  }
  clear(): void {
    this.map.clear()
  }
}

const PLACEHOLDER = /\{([a-z_]+)\}/g

export function createUpstreams(
  config: Record<string, UpstreamConfig>,
  fetchImpl: typeof fetch = fetch,
  opts: CreateUpstreamsOptions = {},
): (name: string) => Upstream {
  const cache = new TtlLru<Answer>(opts.maxEntries ?? 1000, opts.clock ?? Date.now)
  const inflight = new Map<string, Promise<Answer>>()
  const userAgent = opts.userAgent ?? DEFAULT_UPSTREAM_USER_AGENT
  const maxBodyBytes = opts.maxBodyBytes ?? 5 * 1024 * 1024
  const clients = new Map<string, Upstream>()

  function build(name: string, cfg: UpstreamConfig): Upstream {
    const timeoutMs = cfg.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS
    const base = cfg.url.replace(/\/+$/, '')

    async function request(url: string, headers: Record<string, string>, allowStatus: number[]): Promise<Answer> {
      const ctl = new AbortController()
      const timer = setTimeout(() => ctl.abort(), timeoutMs)
      let res: Response
      let text: string
      try {
        res = await fetchImpl(url, { headers, signal: ctl.signal })
        text = await res.text()
      } catch (e) {
        if (ctl.signal.aborted)
          throw upstreamError(name, `${name} did not answer within ${timeoutMs} ms`, { timeout: true })
        throw upstreamError(name, `${name} is unreachable: ${(e as Error).message ?? e}`)
      } finally {
        clearTimeout(timer)
      }
      const ok = (res.status >= 200 && res.status < 300) || allowStatus.includes(res.status)
      if (!ok) {
        const retryable = res.status >= 500 || res.status === 429 || res.status === 408
        const detail = text.slice(0, 200).replace(/\s+/g, ' ').trim()
        const err = upstreamError(name, `${name} answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`, {
          retryable,
        })
        const retryAfter = res.headers.get('retry-after')
        if (res.status === 429 && retryAfter && /^\d{1,5}$/.test(retryAfter.trim())) {
          throw new ServiceError(err.status, err.code, err.message, {
            headers: { 'Retry-After': retryAfter.trim() },
            extra: err.extra,
          })
        }
        throw err
      }
      if (text.length > maxBodyBytes) throw upstreamError(name, `${name} answered more than ${maxBodyBytes} bytes`)
      try {
        return { status: res.status, data: JSON.parse(text) }
      } catch {
        throw upstreamError(
          name,
          `${name} answered HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 80).replace(/\s+/g, ' ')}`,
        )
      }
    }

    return {
      name,
      baseUrl: base,
      key: cfg.key,
      attribution: cfg.attribution ?? attributionOf(name, base),
      async getJson<T = unknown>(
        path: string,
        query: Record<string, string | number | boolean | undefined> = {},
        o: { ttlMs?: number; headers?: Record<string, string>; allowStatus?: number[] } = {},
      ) {
        const q = { ...query }
        const filled = base.replace(PLACEHOLDER, (_, k: string) => {
          const v = q[k]
          delete q[k]
          if (v === undefined || !/^[a-z0-9-]{1,32}$/.test(String(v)))
            throw new ServiceError(422, 'INVALID_INPUT', `${k}: must be 1-32 lower-case letters, digits or hyphens`, {
              details: [{ path: `/${k}`, message: 'invalid' }],
            })
          return String(v)
        })
        const url = new URL(filled + (path.startsWith('/') ? path : `/${path}`))
        for (const [k, v] of Object.entries(q)) if (v !== undefined) url.searchParams.set(k, String(v))
        const headers: Record<string, string> = {
          'user-agent': userAgent,
          accept: 'application/json',
          ...(o.headers ?? {}),
        }
        if (cfg.key) {
          if (cfg.keyHeader) headers[cfg.keyHeader] = cfg.key
          else if (cfg.keyParam) url.searchParams.set(cfg.keyParam, cfg.key)
        }
        const allowStatus = o.allowStatus ?? []
        const cacheKey = `${name} ${url.href} ${JSON.stringify(Object.entries(o.headers ?? {}).sort())} ${allowStatus.join(',')}`
        const hit = cache.get(cacheKey)
        if (hit) return (upstreamEvent.hit(name), hit as { status: number; data: T })
        let p = inflight.get(cacheKey)
        if (!p) {
          p = request(url.href, headers, allowStatus)
            .then(
              (answer) => {
                upstreamEvent.ok(name)
                cache.set(cacheKey, answer, o.ttlMs ?? 0)
                return answer
              },
              (e: Error) => {
                upstreamEvent.fail(name, e.message)
                throw e
              },
            )
            .finally(() => inflight.delete(cacheKey))
          inflight.set(cacheKey, p)
        }
        return (await p) as { status: number; data: T }
      },
    }
  }

  return (name: string): Upstream => {
    const existing = clients.get(name)
    if (existing) return existing
    const cfg = config[name]
    if (!cfg?.url)
      throw new ServiceError(503, 'NOT_CONFIGURED', `upstream ${name} is not configured`, {
        retryable: false,
        extra: { upstream: name },
      })
    const client = build(name, cfg)
    clients.set(name, client)
    return client
  }
}

/** The attribution of an operator-only upstream (none declared): its host. */
function attributionOf(name: string, base: string): Attribution {
  const host = URL.canParse(base) ? new URL(base).host : name
  return {
    source: host,
    url: base,
    license: 'as published by the operator of this upstream',
    terms: 'configured by the operator of this server',
  }
}
