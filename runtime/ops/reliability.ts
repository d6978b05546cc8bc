/**
 * The paid canary's figures (docs/operations.md "Canary"): the paid calls of the configured canary payers
 * (`CANARY_PAYER`, the address `npm run canary` pays from), as this instance saw them: outcome and time from the
 * payment's arrival to its answer being charged, by scheme. `GET /reliability` publishes the last runs (success
 * rate, latency per scheme, the last failure) and the console shows them. Kept in memory (the last 500 calls of
 * this instance): a restart starts the window anew.
 * @module ops/reliability
 */
import { registry } from './metrics'

export interface CanaryCall {
  at: number
  service: string
  scheme: string
  network: string
  /** settled | refused | failed | pending | handler_failed | client_gone | released | collected | error */
  outcome: string
  ok: boolean
  ms: number
  reason?: string
}

const KEEP = 500
const calls: CanaryCall[] = []
let payers = new Set<string>()
const canaryCalls = registry.counter(
  'x402_canary_calls_total',
  'Paid calls of the canary payer (CANARY_PAYER) by scheme and outcome.',
  ['scheme', 'outcome'],
)

/** The canary's payer addresses (lowercase); empty: nothing is recorded. */
export function watchCanary(addresses: string[]): void {
  payers = new Set(addresses.map((a) => a.toLowerCase()))
}

/** True when a canary payer is configured (the console and /reliability show its figures). */
export const canaryWatched = (): boolean => payers.size > 0

export const isCanary = (payer: string | undefined): boolean =>
  payers.size > 0 && payer !== undefined && payers.has(payer.toLowerCase())

export function recordCanary(c: CanaryCall): void {
  canaryCalls.inc({ scheme: c.scheme, outcome: c.outcome })
  calls.push(c)
  if (calls.length > KEEP) calls.splice(0, calls.length - KEEP)
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null

function figures(list: CanaryCall[]) {
  const ms = list.map((c) => c.ms).sort((a, b) => a - b)
  const ok = list.filter((c) => c.ok).length
  return {
    calls: list.length,
    ok,
    success_rate: list.length ? Math.round((ok / list.length) * 10_000) / 10_000 : null,
    latency_ms: { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), max: ms.at(-1) ?? null },
  }
}

/** What GET /reliability answers. */
export function reliabilityReport() {
  const schemes = [...new Set(calls.map((c) => c.scheme))].sort()
  const failure = calls.findLast((c) => !c.ok)
  return {
    source: 'paid canary calls (real payments) seen by this instance since it started, newest last',
    window: { calls: calls.length, since: calls[0] ? new Date(calls[0].at).toISOString() : null },
    ...figures(calls),
    schemes: Object.fromEntries(schemes.map((s) => [s, figures(calls.filter((c) => c.scheme === s))])),
    last_run_at: calls.at(-1) ? new Date(calls.at(-1)!.at).toISOString() : null,
    last_failure: failure
      ? {
          at: new Date(failure.at).toISOString(),
          service: failure.service,
          scheme: failure.scheme,
          outcome: failure.outcome,
          reason: failure.reason ?? null,
        }
      : null,
    recent: calls.slice(-20).map((c) => ({ ...c, at: new Date(c.at).toISOString() })),
  }
}
