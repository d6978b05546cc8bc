import type { Logger, ServiceContext } from '../sdk'
import { ServiceError } from '../sdk/errors'
import { type CallContext, type FromWorker, fromWire, type ToWorker, toWire } from './protocol'
import { workerEnded } from '../ops/metrics'

export interface PoolOptions {
  /** Workers kept ready. */
  workers: number
  /** Calls running at once (one per worker); more wait for a worker within their deadline. */
  maxWorkers: number
  /** The most a call may grow the process's RSS (MB) while it runs; past it the call is stopped. */
  memoryMb: number
  /** The largest answer (MB of JSON) a call may return; a larger one is refused in the worker. */
  answerMb: number
}

/** What a call runs: a service of the generated handler index, or a module whose default export is the handler. */
export interface Target {
  slug: string
  module?: string
  upstreams: readonly string[]
}

interface Job {
  target: Target
  input: unknown
  ctx: ServiceContext
  resolve(v: unknown): void
  reject(e: Error): void
  started: number
  /** This run's number: a context call made by an earlier run's leftovers in the same worker is refused. */
  seq: number
  /** Process RSS when the call started. */
  rssAtStart: number
  slot?: Slot
}

interface Slot {
  worker: Worker
  job?: Job
  /** Context calls of the job the main thread is running (the worker is waiting, not computing). */
  calls: number
  asks: Map<number, (why: string | undefined) => void>
  idle?: ReturnType<typeof setTimeout>
  ended: boolean
}

/**
 * The worker's module: beside this file in the source tree; in the single binary (`bun build --compile` with
 * runtime/index.ts and this worker as entry points), this code sits at the bundle's root and the worker at isolate/.
 */
const WORKER_URL = import.meta.url.includes('$bunfs')
  ? new URL('./isolate/worker.js', import.meta.url)
  : new URL('./worker.ts', import.meta.url)
const SAMPLE_MS = 20
const RETIRE_IDLE_MS = 10_000
const GROW_AFTER_MS = 50

const rss = () => process.memoryUsage.rss()

/**
 * Runs handlers in Bun Workers, one call per worker: a call that outlives its deadline (its context's signal aborts:
 * the handler timeout or the client leaving) or pushes the process past the memory ceiling has its worker ended
 * (`terminate()` stops even a busy loop) and replaced, so no input can stall or bloat the server.
 */
export class HandlerPool {
  private slots: Slot[] = []
  private queue: Job[] = []
  private sampler?: ReturnType<typeof setInterval>
  /** The sampler's latest RSS reading (at most SAMPLE_MS old while the sampler runs). */
  private lastRss = 0
  /** A worker ended for memory whose heap is not yet released: no second victim until it is (or for 1 s at most). */
  private reclaiming?: { slot: Slot; until: number }
  private asks = 0
  private runs = 0
  private closed = false

  constructor(
    private readonly o: PoolOptions,
    private readonly log: Logger,
  ) {}

  /** Runs one call; rejects with the handler's error, or a 504/422 ServiceError when the pool stopped it. */
  run(target: Target, input: unknown, ctx: ServiceContext): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new ServiceError(503, 'NOT_AVAILABLE', 'The server is shutting down.'))
      const job: Job = { target, input, ctx, resolve, reject, started: 0, seq: 0, rssAtStart: 0 }
      if (ctx.signal.aborted) return reject(stopped(target))
      ctx.signal.addEventListener('abort', () => this.stop(job, stopped(target)), { once: true })
      this.queue.push(job)
      this.pump()
    })
  }

  /** Ends every worker; calls still running or waiting are refused. */
  close(): void {
    this.closed = true
    for (const j of this.queue.splice(0))
      j.reject(new ServiceError(503, 'NOT_AVAILABLE', 'The server is shutting down.'))
    for (const s of [...this.slots]) this.end(s, new ServiceError(503, 'NOT_AVAILABLE', 'The server is shutting down.'))
    clearInterval(this.sampler)
    this.sampler = undefined
  }

  /** Workers alive and calls running (for tests and /health-like reports). */
  get size() {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, waiting: this.queue.length }
  }

  /**
   * Gives waiting calls a worker. Beyond the warm count a worker is added only for each call that holds one without
   * computing briefly: waiting on the network or the model, or running longer than GROW_AFTER_MS (likely a heavy or
   * hostile input). Short calls share the warm workers (more threads than cores only slow them down).
   */
  private pump() {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job && !s.ended)
      if (!slot && this.slots.length < Math.min(this.o.maxWorkers, this.o.workers + this.lent())) {
        try {
          slot = this.spawn()
        } catch (e) {
          // no thread to be had (the system's limit): the call is refused as retryable, never run here
          this.log.error('handler worker could not start', { error: String(e) })
          this.queue
            .shift()!
            .reject(new ServiceError(503, 'BUSY', 'No worker is available; retry shortly.', { retryable: true }))
          continue
        }
      }
      if (!slot) return
      this.start(slot, this.queue.shift()!)
    }
  }

  /** Busy workers whose call is waiting on the main thread or has run past GROW_AFTER_MS. */
  private lent() {
    const now = performance.now()
    return this.slots.filter((s) => s.job && (s.calls > 0 || now - s.job.started > GROW_AFTER_MS)).length
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { name: 'handler' })
    const slot: Slot = { worker, calls: 0, asks: new Map(), ended: false }
    worker.onmessage = (e: MessageEvent<FromWorker>) => this.receive(slot, e.data)
    worker.onerror = (e) => this.end(slot, new Error(`handler worker failed: ${e.message}`))
    worker.onmessageerror = () => this.end(slot, new Error('a message from the handler worker could not be read'))
    worker.addEventListener('close', () => {
      if (!slot.ended) this.end(slot, new Error('handler worker exited'))
      if (this.reclaiming?.slot === slot) this.reclaiming = undefined
    })
    this.slots.push(slot)
    return slot
  }

  private start(slot: Slot, job: Job) {
    clearTimeout(slot.idle)
    slot.job = job
    job.slot = slot
    job.started = performance.now()
    job.seq = ++this.runs
    // the sampler's reading while it runs (a call's baseline at most SAMPLE_MS old): no RSS read per call
    if (!this.sampler) this.lastRss = rss()
    job.rssAtStart = this.lastRss
    const upstreams: CallContext['upstreams'] = {}
    for (const name of job.target.upstreams) {
      try {
        const { getJson: _, ...u } = job.ctx.upstream(name)
        upstreams[name] = u
      } catch {
        /* not configured: the worker answers it as the main thread would */
      }
    }
    const c = job.ctx
    const ctx: CallContext = {
      requestId: c.requestId,
      service: c.service,
      tier: c.tier,
      maxTokens: c.maxTokens,
      model: { available: c.model.available, model: c.model.model },
      upstreams,
      stream: c.stream !== undefined,
    }
    try {
      this.send(slot, {
        t: 'run',
        job: job.seq,
        slug: job.target.slug,
        module: job.target.module,
        input: job.input,
        ctx,
        answerBytes: this.o.answerMb * 1_048_576,
      })
    } catch (e) {
      return this.finish(slot, () => job.reject(new ServiceError(422, 'INVALID_INPUT', `input cannot be sent: ${e}`)))
    }
    this.sampler ??= setInterval(() => {
      this.sample()
      this.pump() // a call that has become long lends its place: waiting calls may get a new worker
    }, SAMPLE_MS)
  }

  private receive(slot: Slot, m: FromWorker) {
    const job = slot.job
    if (m.t === 'log') return void this.log[m.level](m.msg, { ...m.fields, request_id: job?.ctx.requestId })
    if (!job) return
    if (m.t === 'done') return this.finish(slot, () => (m.ok ? job.resolve(m.out) : job.reject(fromWire(m.error))))
    if (m.t === 'stream') {
      if (m.job !== job.seq) return
      if (m.kind === 'delta') job.ctx.stream?.delta(m.text)
      else job.ctx.stream?.restart(m.text)
      return
    }
    if (m.t === 'validated') {
      const answer = slot.asks.get(m.ask)
      slot.asks.delete(m.ask)
      return answer?.(m.why)
    }
    if (m.job !== job.seq) {
      const error = toWire(new ServiceError(503, 'ABORTED', 'a context call outlived its handler'))
      return this.send(slot, { t: 'reply', id: m.id, ok: false, error })
    }
    slot.calls++
    this.pump()
    this.contextCall(slot, job, m.id, m.op, m.args)
      .then(
        (value) => this.send(slot, { t: 'reply', id: m.id, ok: true, value }),
        (e) => this.send(slot, { t: 'reply', id: m.id, ok: false, error: toWire(e) }),
      )
      .finally(() => slot.calls--)
  }

  /** The context calls a worker cannot make itself: the main thread's network, model and payment clients. */
  private async contextCall(slot: Slot, job: Job, id: number, op: string, args: unknown[]): Promise<unknown> {
    const ctx = job.ctx
    if (op === 'fetch') {
      const p = await ctx.fetch(...(args as Parameters<ServiceContext['fetch']>))
      return { url: p.url, status: p.status, headers: [...p.headers], contentType: p.contentType, body: p.body }
    }
    if (op === 'getJson') {
      const [name, ...rest] = args as [string, ...Parameters<ReturnType<ServiceContext['upstream']>['getJson']>]
      return ctx.upstream(name).getJson(...rest)
    }
    if (op === 'verify') return ctx.x402.verify(...(args as Parameters<ServiceContext['x402']['verify']>))
    const [req, validates, streams] = args as [Parameters<ServiceContext['model']['complete']>[0], boolean, boolean]
    // The model client streams on this thread; each chunk goes to the sink the worker's handler gave its call.
    const stream = streams
      ? {
          delta: (text: string) => this.send(slot, { t: 'chunk', id, kind: 'delta', text }),
          restart: (reason: string) => this.send(slot, { t: 'chunk', id, kind: 'restart', text: reason }),
        }
      : undefined
    const validate = (json: unknown) =>
      new Promise<string | undefined>((resolve) => {
        const ask = ++this.asks
        slot.asks.set(ask, resolve)
        this.send(slot, { t: 'validate', id, ask, json })
      })
    return ctx.model.complete({ ...req, signal: ctx.signal, validate: validates ? validate : undefined, stream })
  }

  private send(slot: Slot, m: ToWorker) {
    if (!slot.ended) slot.worker.postMessage(m)
  }

  /** Ends the call, then frees its worker for the next one (or retires it when idle beyond the warm count). */
  private finish(slot: Slot, settle: () => void) {
    slot.job = undefined
    // a model call still waiting for the worker's check of its answer ends instead of waiting forever
    for (const answer of slot.asks.values()) answer('the call was stopped')
    slot.asks.clear()
    settle()
    if (!slot.ended && !this.queue.length && this.slots.length > this.o.workers) {
      slot.idle = setTimeout(() => !slot.job && this.end(slot), RETIRE_IDLE_MS)
      slot.idle.unref?.()
    }
    this.pump()
    if (!this.slots.some((s) => s.job)) {
      clearInterval(this.sampler)
      this.sampler = undefined
    }
  }

  /** Stops a call: still waiting, it leaves the queue; running, its worker is ended. */
  private stop(job: Job, err: Error) {
    const i = this.queue.indexOf(job)
    if (i >= 0) {
      this.queue.splice(i, 1)
      return job.reject(err)
    }
    if (job.slot?.job === job) this.end(job.slot, err, true)
  }

  /** Ends a worker (and rejects its call with `err`); the next call that needs one gets a fresh worker. */
  private end(slot: Slot, err?: Error, replace = false) {
    if (slot.ended) return
    slot.ended = true
    clearTimeout(slot.idle)
    if (err && slot.job) workerEnded(err)
    slot.worker.terminate()
    this.slots = this.slots.filter((s) => s !== slot)
    // A worker the pool stopped is replaced at once (the next call finds one ready); a failing one only on demand.
    if (replace && !this.closed && this.slots.length < this.o.workers)
      try {
        this.spawn()
      } catch {
        /* started on demand instead (pump) */
      }
    const job = slot.job
    if (job) {
      if (!(err instanceof ServiceError))
        this.log.error('handler worker ended', { request_id: job.ctx.requestId, error: err?.message })
      this.finish(slot, () => job.reject(err ?? new Error('handler worker ended')))
    }
  }

  /**
   * A call during which the process grew by more than the ceiling is stopped: among several, one computing (not
   * waiting on the network or the model) first, then the youngest (the growth happened entirely while it ran).
   */
  private sample() {
    const now = rss()
    this.lastRss = now
    if (this.reclaiming && performance.now() < this.reclaiming.until) return
    const over = this.slots
      .filter((s) => s.job && !s.ended && now - s.job.rssAtStart > this.o.memoryMb * 1_048_576)
      .sort((a, b) => b.job!.started - a.job!.started)
    const victim = over.find((s) => s.calls === 0) ?? over[0]
    if (!victim) return
    const slug = victim.job!.target.slug
    this.reclaiming = { slot: victim, until: performance.now() + 1000 }
    this.log.warn('handler stopped at the memory ceiling', {
      request_id: victim.job!.ctx.requestId,
      service: slug,
      rss_mb: Math.round(now / 1_048_576),
      grown_mb: Math.round((now - victim.job!.rssAtStart) / 1_048_576),
    })
    this.end(
      victim,
      new ServiceError(
        422,
        'MEMORY_LIMIT',
        `${slug} needed more memory than one call may use for this input; nothing was charged.`,
      ),
      true,
    )
  }
}

const stopped = (t: Target) =>
  new ServiceError(504, 'HANDLER_TIMEOUT', `${t.slug} was stopped before it finished; nothing was charged.`)
