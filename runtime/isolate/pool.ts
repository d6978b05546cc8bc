import type { PoolOptions } from '../config/types'
import type { Logger, ServiceContext } from '../sdk'
import { ServiceError } from '../sdk/errors'
import { callContextOf, contextCall } from './bridge'
import { InlineRunner } from './inline'
import { type FromWorker, fromWire, type ToWorker, toWire } from './protocol'

/** The pool's settings: the first four are required, the rest default as runtime/config/isolate.ts says. */
export type { PoolOptions }
export type PoolSettings = Pick<PoolOptions, 'workers' | 'maxWorkers' | 'memoryMb' | 'answerMb'> & Partial<PoolOptions>

/** A handler's context as the runtime builds it (runtime/call/context.ts): `caller` is whose share of the pool it uses. */
export type PooledContext = ServiceContext & { caller?: string }

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
  /** Whose share of the pool the call uses: the payer's address, or the client's address for a free call. */
  caller: string
  resolve(v: unknown): void
  reject(e: Error): void
  started: number
  /** This run's number: a context call made by an earlier run's leftovers in the same worker is refused. */
  seq: number
  /** Process RSS when the call started (the sampler's reading), plus the start-up of workers since (excused). */
  rssBase: number
  /** RSS read before this call's worker loaded its handler module for the first time (its own start-up). */
  rssBeforeLoad?: number
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
  /** Calls this worker has run. */
  jobs: number
  /** The handler modules this worker has loaded (a first load is start-up, not the call's growth). */
  loaded: Set<string>
  /** RSS read when the worker was started, until it says it is ready (its start-up is then excused). */
  rssAtSpawn?: number
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
/** A call running this long without a context call holds its worker (counts toward its caller's share). */
const HOLD_MS = 1000
/** The most one worker's start-up (or one first module load) excuses from the running calls' growth. */
const START_EXCUSE = 64 * 1_048_576
/** Retry-After (s) of a call refused by the queue, a caller's share or the memory bound. */
const RETRY_AFTER_S = 2
const MB = 1_048_576
const ANONYMOUS = 'anonymous'

const rss = () => process.memoryUsage.rss()
const busy = (message: string) =>
  new ServiceError(503, 'BUSY', `${message}; nothing was charged. Retry shortly.`, {
    retryable: true,
    headers: { 'retry-after': String(RETRY_AFTER_S) },
  })

/**
 * Runs handlers in Bun Workers, one call per worker: a call that outlives its deadline (its context's signal aborts:
 * the handler timeout or the client leaving) or grows the process past the memory ceiling has its worker ended
 * (`terminate()` stops even a busy loop) and replaced, so no input can stall or bloat the server.
 *
 * Shared fairly: a caller (the payer, or the client's address) runs at most `callerWorkers` calls and, while they all
 * hold their workers, has at most `callerQueue` more waiting; the queue holds at most `queue` calls; a call past
 * either, or arriving while the process is above `processMb`, is refused at once with a retryable 503 (the paid
 * pipeline releases its payment). A free worker goes to the waiting call whose caller has the fewest running, oldest
 * first. While calls hold workers, one idle spare is kept started.
 */
export class HandlerPool {
  private readonly o: PoolOptions
  private slots: Slot[] = []
  private queue: Job[] = []
  /** Calls running and waiting, per caller. */
  private running = new Map<string, number>()
  private waiting = new Map<string, number>()
  private sampler?: ReturnType<typeof setInterval>
  /** The latest RSS reading (the sampler's while calls run; read again on need when older than 2 SAMPLE_MS). */
  private lastRss = 0
  private lastRssAt = Number.NEGATIVE_INFINITY
  /** A call started since the sampler's last tick (the sampler stops after a tick with nothing running or started). */
  private active = false
  /** A worker ended for memory whose heap is not yet released: no second victim until it is (or for 1 s at most). */
  private reclaiming?: { slot: Slot; until: number }
  private asks = 0
  private runs = 0
  private closed = false
  /**
   * Counts for tests and reports: calls refused (queue, share, memory bound), workers started and replaced to give
   * memory back, the sampler's readings.
   */
  readonly counts = { refusedQueue: 0, refusedCaller: 0, refusedMemory: 0, recycled: 0, started: 0, samples: 0 }
  /** Told of each worker ended with a call on it (deadline, memory, client gone, crash): operations count them. */
  onWorkerEnded: (err: Error) => void = () => {}
  /** Where the small calls of linear services run instead: on the main thread (runtime/isolate/inline.ts). */
  readonly inline: InlineRunner

  constructor(
    o: PoolSettings,
    private readonly log: Logger,
  ) {
    const callerWorkers = o.callerWorkers ?? Math.max(1, Math.floor(o.maxWorkers / 4))
    this.o = {
      queue: 16 * o.maxWorkers,
      inlineKb: 16,
      inlineMs: 5,
      callerQueue: callerWorkers,
      processMb: 1024,
      workerMb: 128,
      workerJobs: 1000,
      ...o,
      callerWorkers,
    }
    this.inline = new InlineRunner(this.o, log, () => this.lastRss > this.o.processMb * MB)
  }

  /**
   * Runs one call for `ctx.caller`; rejects with the handler's error, a 504/422 ServiceError when the pool stopped
   * it, or a retryable 503 BUSY (with Retry-After) when the pool refused it before it ran.
   */
  run(target: Target, input: unknown, ctx: PooledContext): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new ServiceError(503, 'NOT_AVAILABLE', 'The server is shutting down.'))
      if (ctx.signal.aborted) return reject(stopped(target))
      // an address's spellings (checksummed or not) are one caller
      const caller = ctx.caller?.toLowerCase() || ANONYMOUS
      const refusal = this.refusal(caller)
      if (refusal) return reject(refusal)
      const job: Job = { target, input, ctx, caller, resolve, reject, started: 0, seq: 0, rssBase: 0 }
      ctx.signal.addEventListener('abort', () => this.stop(job, stopped(target)), { once: true })
      this.queue.push(job)
      bump(this.waiting, caller, 1)
      this.pump()
      if (this.queue.length) this.sampling()
    })
  }

  /** Ends every worker; calls still running or waiting are refused. */
  close(): void {
    this.closed = true
    for (const j of this.queue.splice(0))
      j.reject(new ServiceError(503, 'NOT_AVAILABLE', 'The server is shutting down.'))
    this.waiting.clear()
    for (const s of [...this.slots]) this.end(s, new ServiceError(503, 'NOT_AVAILABLE', 'The server is shutting down.'))
    clearInterval(this.sampler)
    this.sampler = undefined
  }

  /** Workers alive, calls running and waiting (for tests and /health-like reports). */
  get size() {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, waiting: this.queue.length }
  }

  /** Calls of `caller` running and waiting. */
  callerSize(caller: string) {
    const key = caller.toLowerCase()
    return { running: this.running.get(key) ?? 0, waiting: this.waiting.get(key) ?? 0 }
  }

  /**
   * Why a new call of `caller` is refused at once, if it is: the process is above its memory bound, or the call
   * would have to wait while its caller already holds its share of workers and has its share of waiting calls, or the
   * queue is full. (A burst of short calls is only queued: what holds a worker is a call waiting on the main thread
   * or running past HOLD_MS; a burst of long ones is trimmed to the share as soon as its calls hold their workers.)
   */
  private refusal(caller: string): ServiceError | undefined {
    if (this.currentRss() > this.o.processMb * MB) {
      this.counts.refusedMemory++
      return busy('The server is at its memory bound')
    }
    const { running, waiting } = this.callerSize(caller)
    // under its share with a worker to be had, a call is queued whatever waits (the fair pick runs it before them)
    if (running < this.o.callerWorkers && this.canStart()) return undefined
    if (waiting >= this.o.callerQueue && this.holding(caller) >= this.o.callerWorkers) {
      this.counts.refusedCaller++
      return busy(this.overShare(caller))
    }
    if (this.queue.length >= this.o.queue) {
      this.counts.refusedQueue++
      return busy('Every handler worker is busy and the queue is full')
    }
    return undefined
  }

  /** The caller's running calls that hold their worker: waiting on the main thread, or running past HOLD_MS. */
  private holding(caller: string) {
    const now = performance.now()
    let n = 0
    for (const s of this.slots) if (s.job?.caller === caller && (s.calls > 0 || now - s.job.started > HOLD_MS)) n++
    return n
  }

  private overShare(caller: string) {
    const { running, waiting } = this.callerSize(caller)
    return `This caller already has ${running} calls running and ${waiting} waiting, its share of the handler workers and queue`
  }

  /**
   * A caller holding its share of workers keeps at most `callerQueue` calls waiting: the newest beyond are refused
   * now (a burst of long calls arrives before any of them holds its worker), not left to time out in the queue.
   */
  private trim() {
    for (const [caller, waiting] of this.waiting) {
      if (waiting <= this.o.callerQueue || this.holding(caller) < this.o.callerWorkers) continue
      for (let i = this.queue.length - 1, extra = waiting - this.o.callerQueue; i >= 0 && extra > 0; i--) {
        const job = this.queue[i]!
        if (job.caller !== caller) continue
        const why = busy(this.overShare(caller))
        this.dequeue(job)
        this.counts.refusedCaller++
        extra--
        job.reject(why)
      }
    }
  }

  /** A worker is free, or one may be added. */
  private canStart() {
    return (
      this.slots.some((s) => !s.job && !s.ended) ||
      this.slots.length < Math.min(this.o.maxWorkers, this.o.workers + this.lent())
    )
  }

  /** The next call to run: of the caller with the fewest running (under its share), the oldest first. */
  private next(): Job | undefined {
    let best: Job | undefined
    let fewest = this.o.callerWorkers
    for (const j of this.queue) {
      const r = this.running.get(j.caller) ?? 0
      if (r < fewest) {
        best = j
        fewest = r
        if (r === 0) break
      }
    }
    return best
  }

  /**
   * Gives waiting calls a worker. Beyond the warm count a worker is added only for each call that holds one without
   * computing briefly: waiting on the network or the model, or running longer than GROW_AFTER_MS (likely a heavy or
   * hostile input). Short calls share the warm workers (more threads than cores only slow them down). Nothing starts
   * while the process is above its memory bound (waiting calls wait within their deadline).
   */
  private pump() {
    this.trim()
    this.assign()
    this.spare()
  }

  private assign() {
    while (this.queue.length) {
      const job = this.next()
      if (!job) return
      let slot = this.slots.find((s) => !s.job && !s.ended)
      if (!slot && this.slots.length < Math.min(this.o.maxWorkers, this.o.workers + this.lent())) {
        try {
          slot = this.spawn()
        } catch (e) {
          // no thread to be had (the system's limit): the call is refused as retryable, never run here
          this.log.error('handler worker could not start', { error: String(e) })
          this.dequeue(job)
          job.reject(busy('No worker is available'))
          continue
        }
      }
      if (!slot || this.lastRss > this.o.processMb * MB) return
      this.dequeue(job)
      this.start(slot, job)
    }
  }

  /**
   * While calls hold workers without computing (the pool may grow), one idle worker is kept started beside them, so
   * the next caller's call does not wait for a worker's start-up (~0.5 s on a loaded 2-core machine) behind a flood.
   * It retires after RETIRE_IDLE_MS unused.
   */
  private spare() {
    if (this.closed || this.slots.some((s) => !s.job && !s.ended)) return
    if (this.slots.length >= Math.min(this.o.maxWorkers, this.o.workers + this.lent())) return
    if (this.lastRss > this.o.processMb * MB) return
    try {
      const slot = this.spawn()
      slot.idle = setTimeout(() => !slot.job && this.end(slot), RETIRE_IDLE_MS)
      slot.idle.unref?.()
    } catch {
      /* no thread to be had: calls start one on demand (pump) */
    }
  }

  private dequeue(job: Job) {
    this.queue.splice(this.queue.indexOf(job), 1)
    bump(this.waiting, job.caller, -1)
  }

  /** Busy workers whose call is waiting on the main thread or has run past GROW_AFTER_MS. */
  private lent() {
    const now = performance.now()
    return this.slots.filter((s) => s.job && (s.calls > 0 || now - s.job.started > GROW_AFTER_MS)).length
  }

  private spawn(): Slot {
    // read before the worker starts: what it grows the process by until it is ready is not the running calls' doing
    const rssAtSpawn = this.readRss()
    const worker = new Worker(WORKER_URL, { name: 'handler' })
    const slot: Slot = { worker, calls: 0, asks: new Map(), ended: false, jobs: 0, loaded: new Set(), rssAtSpawn }
    worker.onmessage = (e: MessageEvent<FromWorker>) => this.receive(slot, e.data)
    worker.onerror = (e) => this.end(slot, new Error(`handler worker failed: ${e.message}`))
    worker.onmessageerror = () => this.end(slot, new Error('a message from the handler worker could not be read'))
    worker.addEventListener('close', () => {
      if (!slot.ended) this.end(slot, new Error('handler worker exited'))
      if (this.reclaiming?.slot === slot) this.reclaiming = undefined
    })
    this.slots.push(slot)
    this.counts.started++
    return slot
  }

  private start(slot: Slot, job: Job) {
    clearTimeout(slot.idle)
    slot.job = job
    slot.jobs++
    job.slot = slot
    job.started = performance.now()
    job.seq = ++this.runs
    bump(this.running, job.caller, 1)
    this.active = true
    // the latest reading (the sampler's while calls run): no RSS read per call on the hot path
    job.rssBase = this.currentRss()
    const key = job.target.module ?? job.target.slug
    // a first load of the handler's module is start-up: read before, excused when the worker says it loaded it
    if (!slot.loaded.has(key)) {
      slot.loaded.add(key)
      job.rssBeforeLoad = this.readRss()
    }
    const ctx = callContextOf(job.ctx, job.target.upstreams)
    try {
      this.send(slot, {
        t: 'run',
        job: job.seq,
        slug: job.target.slug,
        module: job.target.module,
        input: job.input,
        ctx,
        answerBytes: this.o.answerMb * MB,
      })
    } catch (e) {
      return this.finish(slot, () => job.reject(new ServiceError(422, 'INVALID_INPUT', `input cannot be sent: ${e}`)))
    }
    this.sampling()
  }

  private sampling() {
    this.sampler ??= setInterval(() => this.tick(), SAMPLE_MS)
  }

  /**
   * The sampler: RSS, the memory ceilings, a call that has become long lends its place (or the process is back under
   * its bound): waiting calls may start. Stops after a tick with nothing running, started or waiting.
   */
  private tick() {
    if (!this.active && !this.queue.length && !this.slots.some((s) => s.job)) {
      clearInterval(this.sampler)
      this.sampler = undefined
      return
    }
    this.active = false
    this.sample()
    this.pump() // a call that has become long lends its place: waiting calls may get a new worker
  }

  private receive(slot: Slot, m: FromWorker) {
    const job = slot.job
    if (m.t === 'log') return void this.log[m.level](m.msg, { ...m.fields, request_id: job?.ctx.requestId })
    if (m.t === 'ready') {
      if (slot.rssAtSpawn !== undefined) this.excuse(this.readRss() - slot.rssAtSpawn)
      slot.rssAtSpawn = undefined
      return
    }
    if (!job) return
    if (m.t === 'loaded') {
      if (m.job === job.seq && job.rssBeforeLoad !== undefined) this.excuse(this.readRss() - job.rssBeforeLoad)
      job.rssBeforeLoad = undefined
      return
    }
    if (m.t === 'done')
      return this.finish(slot, () => (m.ok ? job.resolve(m.out) : job.reject(fromWire(m.error))), m.heap)
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

  /**
   * A worker's start-up (or its first load of a module) grew the process by `grown`: not the running calls' input,
   * so their baselines move up by it (at most START_EXCUSE each time).
   */
  private excuse(grown: number) {
    const by = Math.min(START_EXCUSE, Math.max(0, grown))
    if (!by) return
    for (const s of this.slots) if (s.job) s.job.rssBase += by
  }

  /** A context call of `job` run on this thread (runtime/isolate/bridge.ts); a model answer's check runs in the worker. */
  private contextCall(slot: Slot, job: Job, id: number, op: string, args: unknown[]): Promise<unknown> {
    const ask = (json: unknown) =>
      new Promise<string | undefined>((resolve) => {
        const n = ++this.asks
        slot.asks.set(n, resolve)
        this.send(slot, { t: 'validate', id, ask: n, json })
      })
    return contextCall(job.ctx, id, op, args, (m) => this.send(slot, m), ask)
  }

  private send(slot: Slot, m: ToWorker) {
    if (!slot.ended) slot.worker.postMessage(m)
  }

  /**
   * Ends the call, then frees its worker for the next one, or replaces it to give its memory back (its heap `heap`,
   * or the process growth during its call, above `workerMb`; its `workerJobs` calls run; the process above its
   * bound), or retires it when idle beyond the warm count.
   */
  private finish(slot: Slot, settle: () => void, heap?: number) {
    const job = slot.job
    slot.job = undefined
    if (job) bump(this.running, job.caller, -1)
    // a model call still waiting for the worker's check of its answer ends instead of waiting forever
    for (const answer of slot.asks.values()) answer('the call was stopped')
    slot.asks.clear()
    settle()
    if (!slot.ended && job && this.worn(slot, job, heap)) {
      this.counts.recycled++
      this.end(slot, undefined, true)
    } else if (!slot.ended && !this.queue.length && this.slots.length > this.o.workers) {
      slot.idle = setTimeout(() => !slot.job && this.end(slot), RETIRE_IDLE_MS)
      slot.idle.unref?.()
    }
    this.pump()
  }

  /** The worker is to be replaced after `job` (readings already taken: no RSS read here). */
  private worn(slot: Slot, job: Job, heap?: number) {
    const limit = this.o.workerMb * MB
    return (
      slot.jobs >= this.o.workerJobs ||
      (heap ?? 0) > limit ||
      this.lastRss - job.rssBase > limit ||
      this.lastRss > this.o.processMb * MB
    )
  }

  /** Stops a call: still waiting, it leaves the queue; running, its worker is ended. */
  private stop(job: Job, err: Error) {
    if (this.queue.includes(job)) {
      this.dequeue(job)
      return job.reject(err)
    }
    if (job.slot?.job === job) this.end(job.slot, err, true)
  }

  /** Ends a worker (and rejects its call with `err`); the next call that needs one gets a fresh worker. */
  private end(slot: Slot, err?: Error, replace = false) {
    if (slot.ended) return
    slot.ended = true
    clearTimeout(slot.idle)
    if (err && slot.job) this.onWorkerEnded(err)
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

  /** RSS now (a read: on need only, never per call). */
  private readRss() {
    this.lastRss = rss()
    this.lastRssAt = performance.now()
    return this.lastRss
  }

  /** The latest reading when it is at most 2 SAMPLE_MS old (the sampler keeps it so while calls run), else a read. */
  private currentRss() {
    return performance.now() - this.lastRssAt <= 2 * SAMPLE_MS ? this.lastRss : this.readRss()
  }

  /**
   * A call during which the process grew by more than the ceiling (workers' start-up and first module loads excluded:
   * measured from spawn to `ready` and from the run to `loaded`, and not judged until then) is stopped: among several,
   * one computing (not waiting on the network or the model) first, then the youngest. Above the process bound, the
   * computing call that grew it most is stopped even under its own ceiling.
   */
  private sample() {
    const now = this.readRss()
    this.counts.samples++
    if (this.reclaiming && performance.now() < this.reclaiming.until) return
    const running = this.slots.filter((s) => s.job && !s.ended)
    // while a worker starts or loads a module, the growth is not yet known to be the calls': their ceiling waits
    // until it is excused (ready, loaded); the process bound holds meanwhile
    const starting = this.slots.some((s) => s.rssAtSpawn !== undefined || s.job?.rssBeforeLoad !== undefined)
    const over = running
      .filter((s) => !starting && now - s.job!.rssBase > this.o.memoryMb * MB)
      .sort((a, b) => b.job!.started - a.job!.started)
    let victim: Slot | undefined = over.find((s) => s.calls === 0) ?? over[0]
    if (!victim && now > this.o.processMb * MB)
      victim = running
        .filter((s) => s.calls === 0)
        .sort((a, b) => a.job!.rssBase - b.job!.rssBase)
        .find((s) => now - s.job!.rssBase > 0)
    if (!victim) return
    const slug = victim.job!.target.slug
    this.reclaiming = { slot: victim, until: performance.now() + 1000 }
    this.log.warn('handler stopped at the memory ceiling', {
      request_id: victim.job!.ctx.requestId,
      service: slug,
      rss_mb: Math.round(now / MB),
      grown_mb: Math.round((now - victim.job!.rssBase) / MB),
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

const bump = (m: Map<string, number>, key: string, by: number) => {
  const n = (m.get(key) ?? 0) + by
  if (n > 0) m.set(key, n)
  else m.delete(key)
}

const stopped = (t: Target) =>
  new ServiceError(504, 'HANDLER_TIMEOUT', `${t.slug} was stopped before it finished; nothing was charged.`)
