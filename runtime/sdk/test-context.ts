import type { ServiceContext } from './context'
import { ServiceError } from './errors'

const unconfigured = (what: string) => () => {
  throw new ServiceError(503, 'NOT_CONFIGURED', `${what} is not configured in this context`)
}

/**
 * A ServiceContext for calling a handler directly in tests. Network and model access throw unless provided.
 * @example
 * const out = await handler({ text: 'Hi' }, testContext({ now: () => new Date('2024-01-01T00:00:00Z') }))
 */
export function testContext(overrides: Partial<ServiceContext> = {}): ServiceContext {
  return {
    requestId: 'test-request',
    service: 'test',
    tier: 'flat',
    maxTokens: 0,
    now: () => new Date(),
    signal: new AbortController().signal,
    log: { info() {}, warn() {}, error() {} },
    fetch: unconfigured('fetch') as ServiceContext['fetch'],
    upstream: unconfigured('upstream') as ServiceContext['upstream'],
    model: { available: false, model: 'none', complete: unconfigured('model') as ServiceContext['model']['complete'] },
    x402: { verify: unconfigured('x402 verification') as ServiceContext['x402']['verify'] },
    ...overrides,
  }
}
