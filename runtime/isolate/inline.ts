/**
 * Calls of cheap, linear services run on the main thread, without the worker hop (issue #38): a service opts in with
 * `linear: true` in its manifest (a synchronous handler with no `needs`, linear in its input: boot checks the first
 * two, its growth test the third), and a call runs here only when its input is at most `inlineKb` KiB of JSON, so a
 * run is short by construction. Every other call, and every call of a service sent back, runs in the worker pool.
 *
 * The guard: a run that takes more than `inlineMs` of this thread's CPU time (a wrong declaration), or whose handler
 * turns out asynchronous (an `async` function: found when it loads; a promise returned: found after its run), sends
 * its service to the pool for the rest of the process, logged once; the event loop is never stalled twice by it.
 * What the pool gives holds here too: the answer's size cap (422 RESPONSE_TOO_LARGE), an answer that is not data is
 * refused (500), errors keep their shape, a call stopped before it ran is not run, and while the process is above its
 * memory bound (the pool's latest reading) a call goes to the pool, which refuses it.
 */
import type { Logger } from '../sdk'
import { ServiceError } from '../sdk/errors'
import { jsonSize } from './json-size'
import type { PooledContext, Target } from './pool'

type Handler = (input: unknown, ctx: PooledContext) => unknown

/** A linear service's target: the pool's, and the loader of its handler module on this thread. */
export interface InlineTarget extends Target {
  load: () => Promise<{ default: unknown }>
}

export interface InlineOptions {
  /** The largest input (KiB of JSON) run on this thread; 0: none. */
  inlineKb: number
  /** The CPU ms a run may take before its service is sent back to the pool. */
  inlineMs: number
  /** The largest answer (MB of JSON), as in the pool. */
  answerMb: number
}

const KB = 1024
const MB = 1_048_576

/** This thread's CPU time in ms (Bun: `process.threadCpuUsage`; the process's where it is missing). */
const threadCpuMs = (): number => {
  const u = process.threadCpuUsage?.() ?? process.cpuUsage()
  return (u.user + u.system) / 1000
}

export class InlineRunner {
  /** Each linear service's handler once loaded here, or null when its calls go to the pool (async, sent back). */
  private readonly fns = new Map<string, Handler | null>()
  private readonly loading = new Map<string, Promise<void>>()
  /** Counts for tests and operations: calls run here, services sent back to the pool. */
  readonly counts = { runs: 0, demoted: 0 }

  /**
   * @param overBound whether the process was above its memory bound at the pool's latest reading (no read here): then
   * a call goes to the pool, which refuses it (503 BUSY) as it refuses its own
   */
  constructor(
    private readonly o: InlineOptions,
    private readonly log: Logger,
    private readonly overBound: () => boolean = () => false,
  ) {}

  /** Whether `slug` still runs here (false once sent back to the pool). */
  runsHere(slug: string): boolean {
    return this.fns.get(slug) !== null && this.o.inlineKb > 0
  }

  /**
   * Runs the call here when the service still may and its input is small; else `pool()` runs it. Returns the answer
   * itself (no promise) for a call run here once the handler is loaded.
   */
  run(target: InlineTarget, input: unknown, ctx: PooledContext, pool: () => Promise<unknown>): unknown {
    const fn = this.fns.get(target.slug)
    if (fn === null || this.overBound() || !this.small(input)) return pool()
    if (fn === undefined) return this.load(target).then(() => this.run(target, input, ctx, pool))
    return this.call(target.slug, fn, input, ctx)
  }

  private small(input: unknown): boolean {
    const limit = this.o.inlineKb * KB
    return limit > 0 && jsonSize(input, limit).size <= limit
  }

  /** Loads the handler here once; an `async` one (or a module that fails here) never runs here. */
  private load(target: InlineTarget): Promise<void> {
    let p = this.loading.get(target.slug)
    if (!p) {
      p = target
        .load()
        .then(
          (m) => {
            const fn = m.default
            if (typeof fn !== 'function') return this.demote(target.slug, 'its module exports no handler')
            if (fn.constructor.name === 'AsyncFunction') return this.demote(target.slug, 'its handler is async')
            this.fns.set(target.slug, fn as Handler)
          },
          (e) => this.demote(target.slug, `its module did not load here: ${e}`),
        )
        .finally(() => this.loading.delete(target.slug))
      this.loading.set(target.slug, p)
    }
    return p
  }

  private call(slug: string, fn: Handler, input: unknown, ctx: PooledContext): unknown {
    if (ctx.signal.aborted)
      throw new ServiceError(504, 'HANDLER_TIMEOUT', `${slug} was stopped before it finished; nothing was charged.`)
    // One clock read per call: this thread's CPU time can only have passed the budget if the wall clock did.
    const cpu = threadCpuMs()
    const t = performance.now()
    let out: unknown
    try {
      out = fn(input, ctx)
    } finally {
      this.counts.runs++
      if (performance.now() - t > this.o.inlineMs) {
        const ms = threadCpuMs() - cpu
        if (ms > this.o.inlineMs) this.demote(slug, `a run took ${ms.toFixed(1)} ms of CPU on the main thread`)
      }
    }
    if (out instanceof Promise || typeof (out as PromiseLike<unknown>)?.then === 'function') {
      this.demote(slug, 'its handler returned a promise')
      return Promise.resolve(out).then((v) => this.checked(slug, v))
    }
    return this.checked(slug, out)
  }

  /** The pool's checks of an answer, made here: its size (the worker's cap) and that it is data. */
  private checked(slug: string, out: unknown): unknown {
    const limit = this.o.answerMb * MB
    const { size, unsendable } = jsonSize(out, limit)
    if (unsendable) throw new Error(`${slug} returned a value that cannot be sent`)
    if (size > limit)
      throw new ServiceError(
        422,
        'RESPONSE_TOO_LARGE',
        `the answer for this input would be over the ${this.o.answerMb} MB one call may return; ask for less`,
      )
    return out
  }

  /** Sends `slug` to the pool for the rest of the process (logged once, counted). */
  private demote(slug: string, why: string) {
    if (this.fns.get(slug) === null) return
    this.fns.set(slug, null)
    this.counts.demoted++
    this.log.warn('linear service runs in the worker pool from now on', { service: slug, why })
  }
}
