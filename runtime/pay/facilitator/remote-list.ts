import type { Logger } from '../../sdk'
import { NotAccepted, type createRemoteFacilitator, type SupportedKinds } from './remote'
import type { ChainStatus, Facilitator, FacilitatorHealth, SettleResult, VerifyResult } from '../types'

type Remote = ReturnType<typeof createRemoteFacilitator>

export interface BreakerOptions {
  /** Consecutive failures that open a facilitator's breaker. */
  failures: number
  /** How long an open breaker skips its facilitator; then one call may try it again (half-open). */
  cooldownMs: number
  log?: Logger
  now?: () => number
  /** Settlement status for reconciliation (e.g. read from the chain); default: ask the members (they say unknown). */
  status?: Facilitator['status']
}

interface State {
  failures: number
  openUntil: number
  lastError?: string
}

export type BreakerState = 'closed' | 'open' | 'half-open'

/**
 * Several facilitators tried in order, each behind a circuit breaker (N failures in a row: skipped for M seconds).
 * /verify and /supported go to the next facilitator on any failure (no money moves). /settle goes to the next
 * one ONLY when the previous one certainly did not take the request (NotAccepted: connection refused, unknown
 * host, 401/403/429/503); a timed-out or otherwise ambiguous /settle is never sent elsewhere, because the first
 * facilitator may have broadcast it: it throws, the gate keeps the payment pending and the reconciler decides.
 * A "no" (isValid/success false) is an answer, not a failure, and is never retried elsewhere.
 */
export function createFacilitatorList(
  members: Remote[],
  o: BreakerOptions,
): Facilitator & {
  members: Remote[]
  supported(): Promise<Array<{ url: string; kinds?: SupportedKinds['kinds']; error?: string }>>
  states(): Array<{ url: string; state: BreakerState; consecutive_failures: number }>
} {
  if (!members.length) throw new Error('createFacilitatorList needs at least one facilitator')
  const now = o.now ?? Date.now
  const state = new Map<Remote, State>(members.map((m) => [m, { failures: 0, openUntil: 0 }]))
  const stateOf = (m: Remote): BreakerState => {
    const s = state.get(m)!
    if (s.failures < o.failures) return 'closed'
    return now() < s.openUntil ? 'open' : 'half-open'
  }
  const succeeded = (m: Remote) => {
    const s = state.get(m)!
    if (s.failures >= o.failures) o.log?.info('facilitator recovered', { facilitator: m.url })
    s.failures = 0
    s.openUntil = 0
    s.lastError = undefined
  }
  const failed = (m: Remote, e: unknown) => {
    const s = state.get(m)!
    s.failures++
    s.lastError = (e as Error).message.slice(0, 200)
    if (s.failures >= o.failures) {
      s.openUntil = now() + o.cooldownMs
      o.log?.warn('facilitator breaker open', {
        facilitator: m.url,
        failures: s.failures,
        cooldown_ms: o.cooldownMs,
        error: s.lastError,
      })
    }
  }
  async function attempt<T>(
    op: string,
    fn: (m: Remote) => Promise<T>,
    mayFailOver: (e: unknown) => boolean,
  ): Promise<T> {
    const candidates = members.filter((m) => stateOf(m) !== 'open')
    if (!candidates.length) throw new NotAccepted(`every facilitator is failing (breakers open); ${op} not attempted`)
    let last: unknown
    for (const [i, m] of candidates.entries()) {
      try {
        const r = await fn(m)
        succeeded(m)
        return r
      } catch (e) {
        failed(m, e)
        last = e
        if (!mayFailOver(e)) throw e
        if (i < candidates.length - 1)
          o.log?.warn('facilitator failed; trying the next one', {
            op,
            facilitator: m.url,
            error: (e as Error).message,
          })
      }
    }
    throw last
  }
  return {
    kind: 'remote',
    members,
    verify: (p, req): Promise<VerifyResult> =>
      attempt(
        'verify',
        (m) => m.verify(p, req),
        () => true,
      ),
    settle: (p, req, onSubmitted): Promise<SettleResult> =>
      attempt(
        'settle',
        (m) => m.settle(p, req, onSubmitted),
        (e) => e instanceof NotAccepted,
      ),
    async status(tx, p, req, receivedAtMs) {
      if (o.status) return o.status(tx, p, req, receivedAtMs)
      for (const m of members) {
        const s = await m.status(tx, p, req, receivedAtMs).catch((): ChainStatus => ({ state: 'unknown' }))
        if (s.state !== 'unknown') return s
      }
      return { state: 'unknown' }
    },
    async supported() {
      // Asks every facilitator (a health signal: the answers feed the breakers too).
      return Promise.all(
        members.map((m) =>
          m.supported().then(
            (r) => {
              succeeded(m)
              return { url: m.url, kinds: r.kinds }
            },
            (e) => {
              failed(m, e)
              return { url: m.url, error: (e as Error).message }
            },
          ),
        ),
      )
    },
    states: () => members.map((m) => ({ url: m.url, state: stateOf(m), consecutive_failures: state.get(m)!.failures })),
    health(): FacilitatorHealth {
      const facilitators = members.map((m) => {
        const s = state.get(m)!
        const st = stateOf(m)
        return {
          url: m.url,
          state: st,
          consecutive_failures: s.failures,
          ...(st === 'open' ? { retry_in_seconds: Math.ceil((s.openUntil - now()) / 1000) } : {}),
          ...(s.lastError ? { last_error: s.lastError } : {}),
        }
      })
      const usable = facilitators.some((f) => f.state !== 'open')
      return {
        ok: usable,
        canPay: usable,
        ...(usable ? {} : { detail: 'every facilitator is failing; paid calls are refused until one recovers' }),
        facilitators,
      }
    },
  }
}
