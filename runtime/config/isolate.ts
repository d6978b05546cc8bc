/** Where handlers run (runtime/isolate): the worker pool, its memory ceiling and the largest answer. */
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

export const isolateVariables = [ISOLATE_WORKERS, ISOLATE_MAX_WORKERS, ISOLATE_MEMORY_MB, ISOLATE_ANSWER_MB]

/** A declared number whose default is computed from the machine (docs say it in words). */
const orComputed = (r: Reader, v: typeof ISOLATE_WORKERS, computed: number) =>
  r.raw(v) === undefined || r.raw(v) === '' ? computed : r.number(v)

export function readIsolate(r: Reader): Pick<Config, 'isolate'> {
  const cores = availableParallelism()
  const isolate = {
    workers: orComputed(r, ISOLATE_WORKERS, Math.max(2, cores)),
    maxWorkers: orComputed(r, ISOLATE_MAX_WORKERS, Math.max(16, 4 * cores)),
    memoryMb: r.number(ISOLATE_MEMORY_MB),
    answerMb: r.number(ISOLATE_ANSWER_MB),
  }
  if (isolate.maxWorkers < isolate.workers) r.problems.push('ISOLATE_MAX_WORKERS must be at least ISOLATE_WORKERS')
  return { isolate }
}
