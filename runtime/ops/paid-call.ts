/**
 * The paid call seen by operations: one wrapper around the first door (`admit`, runtime/pay/server/paid-call.ts)
 * that records what the call did (./metrics.ts) and, when tracing is on (./tracing.ts), its spans: a root span per
 * paid call with children for admission (verify), the handler, and the finish (settle, charge). The wrapper wraps
 * the admitted call's hold, so the JSON answer, the streamed one and MCP tool calls (all through the pipeline) are
 * seen by the same code. An unpaid request (the 402 challenge) passes straight through.
 * @module ops/paid-call
 */
import type * as Api from '@opentelemetry/api'
import { createHash } from 'node:crypto'
import type { Admission, PaidRequest, PaymentHold } from '../pay/server/doors'
import { ServiceError } from '../sdk'
import { m, observing, paid } from './metrics'
import { isCanary, recordCanary } from './reliability'
import { tracing, type Tracing } from './tracing'

/** What the payment header says: its scheme, network, amount and payer (a channel's charge may be less). */
export interface PaymentFacts {
  scheme: string
  network: string
  amount: string
  /** The payer the payload names (exact: the authorization's `from`; a channel: its config's payer). */
  payer?: string
}

/** Reads the facts of a payment header without judging it (the scheme's own decoder does that). */
export function paymentFacts(header: string): PaymentFacts {
  try {
    const p = JSON.parse(atob(header))
    const acc = p?.accepted ?? p ?? {}
    return {
      scheme: String(acc.scheme ?? p?.scheme ?? 'unknown').slice(0, 32),
      network: String(acc.network ?? p?.network ?? 'unknown').slice(0, 64),
      amount: String(p?.payload?.authorization?.value ?? acc.amount ?? acc.maxAmountRequired ?? '0'),
      payer: String(p?.payload?.authorization?.from ?? p?.payload?.channelConfig?.payer ?? '') || undefined,
    }
  } catch {
    return { scheme: 'unknown', network: 'unknown', amount: '0' }
  }
}

/** The payer as a span attribute: a hash, never the address (a trace store is not the ledger). */
export const payerHash = (payer: unknown): string =>
  createHash('sha256')
    .update(`x402-payer:${String(payer).toLowerCase()}`)
    .digest('hex')
    .slice(0, 16)

/** The handler span of each running paid call, by request id (the model and upstream spans' parent). */
const handlerContexts = new Map<string, Api.Context>()

/** The trace context of a running paid call's handler (undefined: tracing off, or not a traced paid call). */
export const handlerContext = (requestId: string): Api.Context | undefined => handlerContexts.get(requestId)

/** The spans of one paid call. */
class CallTrace {
  readonly root: Api.Span
  readonly rootCtx: Api.Context
  private open: Api.Span | undefined
  constructor(
    private t: Tracing,
    r: PaidRequest,
    f: PaymentFacts,
  ) {
    const { api, tracer } = t
    this.root = tracer.startSpan(
      `paid_call ${r.svc.slug}`,
      {
        kind: api.SpanKind.INTERNAL,
        attributes: {
          'x402.service': r.svc.slug,
          'x402.tier': r.tier,
          'x402.scheme': f.scheme,
          'x402.network': f.network,
          'x402.amount': f.amount,
          'x402.request_id': r.requestId,
        },
      },
      api.context.active(),
    )
    this.rootCtx = api.trace.setSpan(api.context.active(), this.root)
    this.open = this.child('x402.admission')
  }
  child(name: string, attributes?: Api.Attributes): Api.Span {
    return this.t.tracer.startSpan(name, { attributes }, this.rootCtx)
  }
  /** Ends the open child and starts the next one. */
  next(name: string, requestId: string): Api.Span {
    this.open?.end()
    this.open = this.child(name)
    if (name.startsWith('handler')) handlerContexts.set(requestId, this.t.api.trace.setSpan(this.rootCtx, this.open))
    else handlerContexts.delete(requestId)
    return this.open
  }
  end(requestId: string, outcome: string, attributes: Api.Attributes = {}, error?: string): void {
    handlerContexts.delete(requestId)
    if (error) this.open?.setStatus({ code: this.t.api.SpanStatusCode.ERROR, message: error })
    this.open?.end()
    this.open = undefined
    this.root.setAttributes({ 'x402.outcome': outcome, ...attributes })
    if (error) this.root.setStatus({ code: this.t.api.SpanStatusCode.ERROR, message: error })
    this.root.end()
  }
}

/** The end of one observed paid call: its trace (when tracing) and the canary's record (when its payer). */
type Done = (outcome: string, ok: boolean, attributes?: Api.Attributes, error?: string) => void

function ender(r: PaidRequest, f: PaymentFacts, trace: CallTrace | undefined): Done {
  const canary = isCanary(f.payer)
  const started = performance.now()
  let ended = false
  return (outcome, ok, attributes, error) => {
    if (ended) return
    ended = true
    trace?.end(r.requestId, outcome, attributes, error)
    if (canary)
      recordCanary({
        at: Date.now(),
        service: r.svc.slug,
        scheme: f.scheme,
        network: f.network,
        outcome,
        ok,
        ms: Math.round(performance.now() - started),
        ...(error ? { reason: error } : {}),
      })
  }
}

/**
 * Records and traces one paid call's admission (`admit` of runtime/pay/server/paid-call.ts); an admitted call's hold
 * is wrapped to see the handler's outcome and the settlement. The answer is never changed.
 */
export function observeAdmit(r: PaidRequest, admit: () => Promise<Admission>): Promise<Admission> {
  if (!r.payment || !observing.on) return admit()
  return observed(r, r.payment.header, admit)
}

async function observed(r: PaidRequest, header: string, admit: () => Promise<Admission>): Promise<Admission> {
  const f = paymentFacts(header)
  const t = tracing()
  const trace = t ? new CallTrace(t, r, f) : undefined
  const done = ender(r, f, trace)
  let a: Admission
  try {
    a = trace ? await t!.api.context.with(trace.rootCtx, admit) : await admit()
  } catch (e) {
    const code = e instanceof ServiceError ? e.code : 'INTERNAL'
    // Refused before any payment work (429 throttled, 503 payments unavailable); a bad body is not a refusal.
    if (e instanceof ServiceError && (e.status === 429 || e.status >= 500))
      m.refusals.inc({ reason: code.toLowerCase() })
    done('error', false, { 'x402.error': code }, code)
    throw e
  }
  switch (a.kind) {
    case 'refused':
      m.refusals.inc({ reason: a.reason })
      done('refused', false, { 'x402.reason': a.reason }, a.reason)
      break
    case 'collected':
      m.collected.inc()
      done('collected', true)
      break
    case 'admitted':
      trace?.next(`handler ${r.svc.slug}`, r.requestId)
      a.call.hold = observedHold(a.call.hold, r, f, trace, done)
      break
    default:
      done(a.kind, false)
  }
  return a
}

/** The hold of an admitted call, seen: the handler's end, the settlement's outcome and time. */
function observedHold(
  h: PaymentHold,
  r: PaidRequest,
  f: PaymentFacts,
  trace: CallTrace | undefined,
  done: Done,
): PaymentHold {
  const service = r.svc.slug
  const id = r.requestId
  return {
    keep(body) {
      trace?.next('x402.finish', id)
      return h.keep(body)
    },
    async settle() {
      const started = performance.now()
      const labels = { scheme: f.scheme, network: f.network }
      let s: Awaited<ReturnType<PaymentHold['settle']>>
      try {
        s = await h.settle()
      } catch (e) {
        m.settlements.inc({ ...labels, outcome: 'error' })
        done('error', false, {}, String((e as Error)?.message ?? e).slice(0, 200))
        throw e
      }
      m.settleSeconds.observe(labels, (performance.now() - started) / 1000)
      if (s.ok) {
        const amount = s.charged?.atomic ?? f.amount
        paid(service, f.scheme, String(s.response.network ?? f.network), amount)
        m.settlements.inc({ ...labels, outcome: 'settled' })
        done('settled', true, {
          'x402.amount': amount,
          'x402.transaction': String(s.response.transaction ?? ''),
          'x402.payer_hash': payerHash(s.response.payer ?? f.payer),
        })
      } else {
        const outcome = s.pending ? 'pending' : 'failed'
        m.settlements.inc({ ...labels, outcome })
        done(outcome, false, { 'x402.reason': s.reason }, s.reason)
      }
      return s
    },
    async failed(status, code) {
      m.runsFailed.inc({ service, code })
      try {
        await h.failed(status, code)
      } finally {
        done(status === 499 ? 'client_gone' : 'handler_failed', false, { 'x402.error': code }, code)
      }
    },
    async release(why) {
      // A streamed answer's handler failure releases with `handler <status> <code>` (runtime/pay/server/paid-call.ts).
      const failedRun = why.match(/^handler \d+ (\S+)/)?.[1]
      if (failedRun) m.runsFailed.inc({ service, code: failedRun })
      try {
        await h.release(why)
      } finally {
        done('released', false, { 'x402.reason': why.slice(0, 120) }, why.slice(0, 120))
      }
    },
  }
}
