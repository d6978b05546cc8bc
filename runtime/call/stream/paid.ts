/**
 * A paid call answered as Server-Sent Events (docs/streaming.md): the payment is already admitted (verified and
 * reserved); the model's text streams as `delta` events; settlement runs only once the handler returned its
 * complete, valid result, and the settlement response (with the signed receipt) is the `payment` of the final
 * `result` event. Delivered output is paid: a client that leaves once the model's answer was complete is charged
 * (runtime/call/stream/call.ts), and so is a stream cut by the handler's budget after it sent text (`cutByBudget`); a
 * failed handler, or a client that leaves while the model's work can still be cancelled, is charged nothing. Every
 * outcome goes through the paid call's one finish (runtime/pay/server/paid-call.ts `conclude`, as a JSON answer's).
 * @module stream/paid
 */
import { finishStreamed, type AdmittedCall, type Outcome } from '../../pay/server/paid-call'
import { ServiceError, type ModelRequest, type StreamSink } from '../../sdk'
import type { PipelineDeps } from '../pipeline'
import { runHandler } from '../run-handler'
import { streamedCall } from './call'

export async function streamPaid(req: Request, call: AdmittedCall, deps: PipelineDeps): Promise<Response> {
  const { svc, tier, requestId } = call.request
  const delivered: string[] = []
  return streamedCall({
    requestId,
    signal: req.signal,
    heartbeatMs: deps.config.streamHeartbeatMs,
    headers: call.headers,
    run: (sink, signal) => {
      // The handler stops at its budget (`abort`); a client that leaves cancels the model call only, so an answer
      // the model had completed is finished (and charged) rather than thrown away with the handler's worker.
      const abort = new AbortController()
      const left = AbortSignal.any([signal, req.signal])
      const ctx = deps.context(svc, tier, requestId, abort.signal, call.payer)
      const model = {
        ...ctx.model,
        complete: (r: ModelRequest) =>
          ctx.model.complete({ ...r, signal: r.signal ? AbortSignal.any([r.signal, left]) : left }),
      }
      const counted: StreamSink = {
        delta: (text) => {
          if (typeof text === 'string' && text) delivered.push(text)
          sink.delta(text)
        },
        restart: (reason) => sink.restart(reason),
      }
      return runHandler(svc, call.input, { ...ctx, model, stream: counted }, abort)
    },
    finish: async (outcome) =>
      finishStreamed(call, await cutByBudget(outcome, delivered.join(''), call, svc.model), deps),
    onEnd: call.done,
  })
}

/**
 * A stream the handler's time budget cut after it delivered text is charged for what it delivered, as a truncated
 * answer (docs/streaming.md "Payment and what is charged"): `truncated: "HANDLER_TIMEOUT"`, the delivered text as
 * `result`, and `tokens_used` the delivered text counted (a channel pays for the tokens produced, with the floor;
 * `exact` pays the price). Any other outcome goes on as it is.
 */
export async function cutByBudget(outcome: Outcome, text: string, call: AdmittedCall, model: string): Promise<Outcome> {
  if (outcome.ok || outcome.gone || !text) return outcome
  if (!(outcome.error instanceof ServiceError) || outcome.error.code !== 'HANDLER_TIMEOUT') return outcome
  const { svc, tier, requestId } = call.request
  // the tokenizer loads with the model client (the first model call), never at boot
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base')
  return {
    ok: true,
    out: {
      service: svc.slug,
      tier,
      result: text,
      model,
      tokens_used: countTokens(text),
      request_id: requestId,
      truncated: 'HANDLER_TIMEOUT',
    },
  }
}
