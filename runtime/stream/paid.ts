/**
 * A paid call answered as Server-Sent Events (docs/streaming.md): the payment is already admitted (verified and
 * reserved); the model's text streams as `delta` events; settlement runs only once the handler returned its
 * complete, valid result, and the settlement response (with the signed receipt) is the `payment` of the final
 * `result` event. A failed handler or a client that leaves releases the payment: nothing is charged. Both ends are
 * the paid call's second door (runtime/pay/server/paid-call.ts, `finishStreamed`).
 * @module stream/paid
 */
import { finishStreamed, type AdmittedCall } from '../pay/server/paid-call'
import type { PipelineDeps } from '../pipeline'
import { runHandler } from '../run-handler'
import { streamedCall } from './call'

export async function streamPaid(req: Request, call: AdmittedCall, deps: PipelineDeps): Promise<Response> {
  const { svc, tier, requestId } = call.request
  return streamedCall({
    requestId,
    signal: req.signal,
    heartbeatMs: deps.config.streamHeartbeatMs,
    headers: call.headers,
    run: (sink, signal) => {
      const abort = new AbortController()
      const ctx = deps.context(svc, tier, requestId, AbortSignal.any([abort.signal, signal, req.signal]), call.payer)
      return runHandler(svc, call.input, { ...ctx, stream: sink }, abort)
    },
    fail: (e, gone) => finishStreamed.fail(call, e, gone, deps),
    finish: (out) => finishStreamed.settle(call, out, deps),
    onEnd: call.done,
  })
}
