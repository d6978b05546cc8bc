import { ServiceError } from '../sdk/errors'
import type { Attribution, TierName } from '../sdk'

/** What a worker needs to rebuild a call's context: the plain fields, the model's labels, the declared upstreams. */
export interface CallContext {
  requestId: string
  service: string
  tier: TierName
  maxTokens: number
  model: { available: boolean; model: string }
  upstreams: Record<string, { name: string; baseUrl: string; key?: string; attribution: Attribution }>
  /** The client asked for a stream: the handler gets a `ctx.stream` whose chunks cross back (`stream` messages). */
  stream: boolean
}

/** A chunk of streamed text: the next `delta`, or a `restart` (drop what was sent; `text` says why). */
export interface Chunk {
  kind: 'delta' | 'restart'
  text: string
}

/** Main thread -> worker. */
export type ToWorker =
  /** Run `slug`'s handler (from the generated handler index, or from `module` when given). */
  | { t: 'run'; job: number; slug: string; module?: string; input: unknown; ctx: CallContext; answerBytes: number }
  /** The answer to the worker's context call `id`. */
  | { t: 'reply'; id: number; ok: true; value: unknown }
  | { t: 'reply'; id: number; ok: false; error: WireError }
  /** Run the `validate` of the worker's model call `id` on a schema-valid answer. */
  | { t: 'validate'; id: number; ask: number; json: unknown }
  /** A chunk of the worker's streamed model call `id`, for the stream sink that call was given. */
  | ({ t: 'chunk'; id: number } & Chunk)

/** Worker -> main thread. */
export type FromWorker =
  /** The worker's modules are loaded: what it grew the process by until now is its start-up. */
  | { t: 'ready' }
  /** Run `job` loaded its handler's module for the first time in this worker (start-up, not the input's growth). */
  | { t: 'loaded'; job: number }
  /** The run's end; `heap`: this worker's own JavaScript heap (bytes, after the run), for its replacement. */
  | { t: 'done'; ok: true; out: unknown; heap: number }
  | { t: 'done'; ok: false; error: WireError; heap: number }
  /** A context call of run `job`, made by the main thread (network, model, payments), answered with `reply`. */
  | { t: 'call'; job: number; id: number; op: 'fetch' | 'getJson' | 'complete' | 'verify'; args: unknown[] }
  | { t: 'validated'; ask: number; why: string | undefined }
  /** A chunk the handler of run `job` wrote to its `ctx.stream`, for the client's stream. */
  | ({ t: 'stream'; job: number } & Chunk)
  | { t: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> }

/** An error as it crosses a thread: a ServiceError keeps everything it answers with; anything else its message. */
export type WireError =
  | {
      service: true
      status: number
      code: ServiceError['code']
      message: string
      details?: unknown
      headers?: Record<string, string>
      extra?: Record<string, unknown>
    }
  | { service: false; name: string; message: string; stack?: string }

export function toWire(e: unknown): WireError {
  if (e instanceof ServiceError)
    return {
      service: true,
      status: e.status,
      code: e.code,
      message: e.message,
      details: e.details,
      headers: e.headers,
      extra: e.extra,
    }
  const err = e instanceof Error ? e : new Error(String(e))
  return { service: false, name: err.name, message: err.message, stack: err.stack }
}

export function fromWire(w: WireError): Error {
  if (w.service)
    return new ServiceError(w.status, w.code, w.message, { details: w.details, headers: w.headers, extra: w.extra })
  const e = new Error(w.message)
  e.name = w.name
  if (w.stack) e.stack = w.stack
  return e
}
