/**
 * A handler worker (runtime/isolate/pool.ts): runs one call at a time, so the main thread can stop it at any moment
 * (terminate) without touching another call. The context's network, model and payment calls are run by the main
 * thread over messages; the rest of the context is rebuilt here.
 */
import { heapSize } from 'bun:jsc'
import { decodeBody } from '../net/safe-fetch'
import type { FetchedPage, ModelRequest, ServiceContext, StreamSink } from '../sdk'
import { ServiceError } from '../sdk/errors'
// The binary's second entry point (package.json build): like runtime/index.ts it may import the generated index.
import { handlers } from '../../services/handlers.gen'
import { type CallContext, type FromWorker, fromWire, type ToWorker, toWire } from './protocol'

declare const self: Worker

type Handler = (input: unknown, ctx: ServiceContext) => unknown
const loaded = new Map<string, Handler>()
const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
const validators = new Map<number, (json: unknown) => string | undefined | Promise<string | undefined>>()
/** The stream sink of each streamed model call in flight (its chunks come from the main thread's model client). */
const sinks = new Map<number, StreamSink>()
let nextId = 0
const post = (m: FromWorker) => self.postMessage(m)

async function handlerOf(job: number, slug: string, module: string | undefined): Promise<Handler> {
  const key = module ?? slug
  let fn = loaded.get(key)
  if (!fn) {
    const load = module ? () => import(module) : handlers[slug]
    if (!load) throw new Error(`no handler module for ${slug}`)
    fn = (await load()).default as Handler
    loaded.set(key, fn)
    post({ t: 'loaded', job })
  }
  return fn
}

function call<T>(
  job: number,
  op: Extract<FromWorker, { t: 'call' }>['op'],
  args: unknown[],
  validate?: ModelRequest['validate'],
  stream?: StreamSink,
) {
  const id = ++nextId
  if (validate) validators.set(id, validate)
  if (stream) sinks.set(id, stream)
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
    post({ t: 'call', job, id, op, args })
  }).finally(() => {
    validators.delete(id)
    sinks.delete(id)
  })
}

function page(p: Omit<FetchedPage, 'headers' | 'text'> & { headers: [string, string][] }): FetchedPage {
  const headers = new Headers(p.headers)
  return { ...p, headers, text: () => decodeBody(p.body, headers.get('content-type')) }
}

function contextOf(job: number, c: CallContext): ServiceContext {
  const log = (level: 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => {
    try {
      post({ t: 'log', level, msg, fields })
    } catch {
      // fields that cannot cross a thread (functions, class instances) are logged as text
      post({ t: 'log', level, msg, fields: { fields: String(fields) } })
    }
  }
  const stream: StreamSink | undefined = c.stream
    ? {
        delta: (text) => post({ t: 'stream', job, kind: 'delta', text }),
        restart: (reason) => post({ t: 'stream', job, kind: 'restart', text: reason }),
      }
    : undefined
  return {
    requestId: c.requestId,
    stream,
    service: c.service,
    tier: c.tier,
    maxTokens: c.maxTokens,
    now: () => new Date(),
    // The main thread ends this worker instead of aborting: nothing here outlives the call.
    signal: new AbortController().signal,
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    fetch: async (url, opts) => page(await call(job, 'fetch', [url, opts])),
    upstream(name) {
      const u = c.upstreams[name]
      if (!u)
        throw new ServiceError(503, 'NOT_CONFIGURED', `upstream ${name} is not configured`, {
          retryable: false,
          extra: { upstream: name },
        })
      return { ...u, getJson: (path, query, opts) => call(job, 'getJson', [name, path, query, opts]) }
    },
    model: {
      ...c.model,
      complete: ({ signal: _signal, validate, stream: sink, ...req }) =>
        call(job, 'complete', [req, Boolean(validate), Boolean(sink)], validate, sink),
    },
    x402: { verify: (req) => call(job, 'verify', [req]) },
  }
}

async function run(m: Extract<ToWorker, { t: 'run' }>) {
  try {
    const fn = await handlerOf(m.job, m.slug, m.module)
    const out = await fn(m.input, contextOf(m.job, m.ctx))
    // Measured here, where the work can still be stopped: a huge answer would block the event loop on arrival.
    const size = JSON.stringify(out)?.length ?? 0
    if (size > m.answerBytes)
      throw new ServiceError(
        422,
        'RESPONSE_TOO_LARGE',
        `the answer for this input would be ${(size / 1_048_576).toFixed(1)} MB, over the ${m.answerBytes / 1_048_576} MB one call may return; ask for less`,
      )
    try {
      post({ t: 'done', ok: true, out, heap: heapSize() })
    } catch (e) {
      const error = toWire(new Error(`${m.slug} returned a value that cannot be sent: ${e}`))
      post({ t: 'done', ok: false, error, heap: heapSize() })
    }
  } catch (e) {
    post({ t: 'done', ok: false, error: toWire(e), heap: heapSize() })
  }
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data
  if (m.t === 'run') return void run(m)
  if (m.t === 'chunk') {
    const sink = sinks.get(m.id)
    if (m.kind === 'delta') sink?.delta(m.text)
    else sink?.restart(m.text)
    return
  }
  if (m.t === 'reply') {
    const w = waiting.get(m.id)
    waiting.delete(m.id)
    if (m.ok) w?.resolve(m.value)
    else w?.reject(fromWire(m.error))
    return
  }
  const check = validators.get(m.id)
  void Promise.resolve()
    .then(() => check?.(m.json))
    .catch((err: Error) => `rejected: ${err.message}`)
    .then((why) => post({ t: 'validated', ask: m.ask, why: why ?? undefined }))
}

post({ t: 'ready' })
