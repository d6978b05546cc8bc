/**
 * Process-wide counters of live-data upstream use, for the operator console: calls, cache hits, failures and the
 * last failure of each upstream. Fed by runtime/net/upstream.ts; read-only for everyone else. Bounded (64 names).
 */
export interface UpstreamHealth {
  name: string
  requests: number
  cache_hits: number
  failures: number
  last_error: { message: string; at: string } | null
  last_ok_at: string | null
}

const table = new Map<string, UpstreamHealth>()

function entry(name: string): UpstreamHealth {
  let e = table.get(name)
  if (!e) {
    if (table.size >= 64) table.delete(table.keys().next().value!)
    table.set(name, (e = { name, requests: 0, cache_hits: 0, failures: 0, last_error: null, last_ok_at: null }))
  }
  return e
}

export const upstreamEvent = {
  hit(name: string): void {
    entry(name).cache_hits++
  },
  ok(name: string): void {
    const e = entry(name)
    e.requests++
    e.last_ok_at = new Date().toISOString()
  },
  fail(name: string, message: string): void {
    const e = entry(name)
    e.requests++
    e.failures++
    e.last_error = { message: message.slice(0, 300), at: new Date().toISOString() }
  },
}

/** A snapshot of every upstream seen since the process started, with its cache hit rate. */
export function upstreamHealth(): Array<UpstreamHealth & { hit_rate: number | null }> {
  return [...table.values()]
    .map((e) => ({ ...e, hit_rate: e.requests + e.cache_hits ? e.cache_hits / (e.requests + e.cache_hits) : null }))
    .sort((a, b) => a.name.localeCompare(b.name))
}
