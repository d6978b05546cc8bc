/**
 * Where handlers run (runtime/isolate): the worker pool, its queue and each caller's share of it, the memory ceilings
 * (per call and for the process), when a worker is replaced, the largest answer, and which calls of a linear service
 * run on the main thread instead.
 */
import { availableParallelism } from 'node:os'
import { type Reader, variable } from './declare'
import type { Config } from './types'

export const ISOLATE_WORKERS = variable({
  name: 'ISOLATE_WORKERS',
  defaultText: 'the number of cores (at least 2)',
  min: 1,
  concern: 'limits',
  description: 'handler workers kept ready',
})
export const ISOLATE_MAX_WORKERS = variable({
  name: 'ISOLATE_MAX_WORKERS',
  defaultText: '4 × the cores (at least 16)',
  min: 1,
  concern: 'limits',
  description:
    'most handler calls at once (calls waiting on the model or the network hold a worker each; more wait within their deadline); at least ISOLATE_WORKERS',
})
export const ISOLATE_MEMORY_MB = variable({
  name: 'ISOLATE_MEMORY_MB',
  default: 256,
  min: 16,
  concern: 'limits',
  description: 'how much one call may grow the process RSS before it is stopped (422 MEMORY_LIMIT, never charged)',
})
export const ISOLATE_ANSWER_MB = variable({
  name: 'ISOLATE_ANSWER_MB',
  default: 16,
  min: 1,
  concern: 'limits',
  description:
    'the largest answer (JSON) one call may return; larger is refused in its worker (422 RESPONSE_TOO_LARGE)',
})

export const ISOLATE_QUEUE = variable({
  name: 'ISOLATE_QUEUE',
  defaultText: '16 × ISOLATE_MAX_WORKERS',
  min: 0,
  concern: 'limits',
  description:
    'most calls waiting for a handler worker, all callers together (a waiting call that reaches its deadline is stopped: 504, never charged); past it a call is refused at once (503 BUSY with Retry-After, never charged)',
})
export const ISOLATE_INLINE_KB = variable({
  name: 'ISOLATE_INLINE_KB',
  default: 16,
  min: 0,
  concern: 'limits',
  description:
    "a call of a linear service (its manifest's `linear: true`) whose input is at most this large (KiB of JSON) runs on the main thread, without the worker hop; 0: every call runs in a worker",
})
export const ISOLATE_INLINE_MS = variable({
  name: 'ISOLATE_INLINE_MS',
  default: 5,
  min: 1,
  concern: 'limits',
  description:
    "a linear service's run on the main thread that takes more CPU time than this (ms) sends that service to the worker pool for the rest of the process (logged once)",
})
export const ISOLATE_CALLER_WORKERS = variable({
  name: 'ISOLATE_CALLER_WORKERS',
  defaultText: 'a quarter of ISOLATE_MAX_WORKERS (at least 1)',
  min: 1,
  concern: 'limits',
  description:
    "most handler workers one caller holds at once (a payer's address; the client's address for free calls), so one caller never fills the pool",
})
export const ISOLATE_CALLER_QUEUE = variable({
  name: 'ISOLATE_CALLER_QUEUE',
  defaultText: 'ISOLATE_CALLER_WORKERS',
  min: 0,
  concern: 'limits',
  description:
    "most calls one caller may have waiting while it holds its ISOLATE_CALLER_WORKERS (calls waiting on the network or the model, or running past 1 s); past it the caller's newest calls are refused at once (503 BUSY with Retry-After, never charged)",
})
export const ISOLATE_PROCESS_MB = variable({
  name: 'ISOLATE_PROCESS_MB',
  default: 1024,
  min: 64,
  concern: 'limits',
  description:
    'the process RSS bound: above it new calls are refused (503 BUSY with Retry-After, never charged), the computing call that grew the process most is stopped (422 MEMORY_LIMIT) and workers are replaced as their calls end',
})
export const ISOLATE_WORKER_MB = variable({
  name: 'ISOLATE_WORKER_MB',
  default: 128,
  min: 8,
  concern: 'limits',
  description:
    "a worker whose own heap, or whose last call's growth of the process, is above this when the call ends is replaced (its memory goes back to the system)",
})
export const ISOLATE_WORKER_JOBS = variable({
  name: 'ISOLATE_WORKER_JOBS',
  default: 1000,
  min: 1,
  concern: 'limits',
  description: 'calls one handler worker runs before it is replaced',
})

export const isolateVariables = [
  ISOLATE_WORKERS,
  ISOLATE_MAX_WORKERS,
  ISOLATE_MEMORY_MB,
  ISOLATE_ANSWER_MB,
  ISOLATE_QUEUE,
  ISOLATE_INLINE_KB,
  ISOLATE_INLINE_MS,
  ISOLATE_CALLER_WORKERS,
  ISOLATE_CALLER_QUEUE,
  ISOLATE_PROCESS_MB,
  ISOLATE_WORKER_MB,
  ISOLATE_WORKER_JOBS,
]

/** A declared number whose default is computed from the machine (docs say it in words). */
const orComputed = (r: Reader, v: typeof ISOLATE_WORKERS, computed: number) =>
  r.raw(v) === undefined || r.raw(v) === '' ? computed : r.number(v)

export function readIsolate(r: Reader): Pick<Config, 'isolate'> {
  const cores = availableParallelism()
  const maxWorkers = orComputed(r, ISOLATE_MAX_WORKERS, Math.max(16, 4 * cores))
  const callerWorkers = orComputed(r, ISOLATE_CALLER_WORKERS, Math.max(1, Math.floor(maxWorkers / 4)))
  const isolate = {
    workers: orComputed(r, ISOLATE_WORKERS, Math.max(2, cores)),
    maxWorkers,
    memoryMb: r.number(ISOLATE_MEMORY_MB),
    answerMb: r.number(ISOLATE_ANSWER_MB),
    queue: orComputed(r, ISOLATE_QUEUE, 16 * maxWorkers),
    inlineKb: r.number(ISOLATE_INLINE_KB),
    inlineMs: r.number(ISOLATE_INLINE_MS),
    callerWorkers,
    callerQueue: orComputed(r, ISOLATE_CALLER_QUEUE, callerWorkers),
    processMb: r.number(ISOLATE_PROCESS_MB),
    workerMb: r.number(ISOLATE_WORKER_MB),
    workerJobs: r.number(ISOLATE_WORKER_JOBS),
  }
  if (isolate.maxWorkers < isolate.workers) r.problems.push('ISOLATE_MAX_WORKERS must be at least ISOLATE_WORKERS')
  return { isolate }
}
