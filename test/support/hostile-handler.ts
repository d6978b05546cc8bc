import { ServiceError, type ServiceContext } from '../../runtime/sdk'

/** What `keep:<MB>` calls hold on to: the worker's heap stays that large after the call. */
const kept: string[] = []

/**
 * The handler of the hostile test services (test/support/hostile-service.ts), loaded by URL inside a worker of the
 * pool: it says it started (a log line the test waits for), then spins forever or allocates without bound.
 * `code: 'refuse'` throws a ServiceError, `code: 'function'` returns what cannot cross a thread, `code: 'big'` 2 MB,
 * `code: 'fetch:<url>'` waits on the main thread's `ctx.fetch` (as a page read does), `code: 'keep:<MB>'` allocates
 * that much and keeps it in the worker (a call that leaves its worker large), then answers.
 */
export default async function hostile(input: { code: string }, ctx: ServiceContext): Promise<unknown> {
  if (input.code.startsWith('fetch:')) {
    const page = await ctx.fetch(input.code.slice(6))
    return { echo: `${page.status}` }
  }
  if (input.code.startsWith('keep:')) {
    for (let i = 0; i < Number(input.code.slice(5)); i++) kept.push(`${i}`.padEnd(1_048_576, 'k'))
    return { echo: `kept ${kept.length}` }
  }
  if (input.code === 'refuse')
    throw new ServiceError(429, 'BUSY', 'busy, try later', {
      headers: { 'retry-after': '3' },
      retryable: true,
      details: [{ path: '/code', message: 'refused' }],
    })
  if (input.code === 'function') return { echo: () => 'not data' }
  if (input.code === 'big') return { echo: 'x'.repeat(2 * 1_048_576) }
  if (ctx.service === 'test-quick') return { echo: input.code.toUpperCase() }
  ctx.log.info(`${ctx.service} started`)
  if (ctx.service === 'test-bloat') {
    const kept: string[] = []
    for (let i = 0; ; i++) kept.push(`${i}`.padEnd(1_000_000, 'x'))
  }
  for (;;) {
    // a busy loop that never yields: only ending its worker stops it
  }
}
