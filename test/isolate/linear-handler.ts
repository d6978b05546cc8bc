import { isMainThread } from 'node:worker_threads'
import { ServiceError, type ServiceContext } from '../../runtime/sdk'

/**
 * A synchronous handler for the inline tests (test/isolate/inline.test.ts), loaded by URL on the main thread or in a
 * worker of the pool: it answers where it ran (`main`). `code: 'spin:<ms>'` computes that long first (CPU time) (a wrong
 * `linear` declaration), `refuse` throws a ServiceError, `big` returns 2 MB, `function` what is not data, `promise`
 * its answer later (a handler that is async in disguise), `text` is the input's length.
 */
export default function linear(input: { code: string; text?: string }, _ctx: ServiceContext): unknown {
  const { code } = input
  if (code.startsWith('spin:')) {
    // this thread's CPU time, not the clock's: a loaded machine does not shorten the work
    const cpu = () => {
      const u = process.threadCpuUsage()
      return (u.user + u.system) / 1000
    }
    const until = cpu() + Number(code.slice(5))
    while (cpu() < until) {
      // computing: the CPU time the inline guard measures
    }
  }
  if (code === 'refuse')
    throw new ServiceError(429, 'BUSY', 'busy, try later', {
      headers: { 'retry-after': '3' },
      retryable: true,
      details: [{ path: '/code', message: 'refused' }],
    })
  if (code === 'big') return { echo: 'x'.repeat(2 * 1_048_576), main: isMainThread }
  if (code === 'function') return { echo: () => 'not data', main: isMainThread }
  if (code === 'promise') return Promise.resolve({ echo: 'LATER', main: isMainThread })
  return { echo: code.toUpperCase(), main: isMainThread, length: input.text?.length ?? 0 }
}
