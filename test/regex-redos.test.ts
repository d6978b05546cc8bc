import { expect, test } from 'bun:test'
import handler from '../services/regex-test/handler'
import { ServiceError, testContext } from '../runtime/sdk'

test('a catastrophic pattern answers 422 within a second and does not block the event loop', async () => {
  const started = Date.now()
  let ticks = 0
  const ticker = setInterval(() => ticks++, 10)
  const call = handler({ pattern: '(a+)+$', text: 'a'.repeat(40) + '!', flags: 'g' } as never, testContext()) as Promise<unknown>
  const concurrent = handler({ pattern: 'b', text: 'abc', flags: 'g' } as never, testContext()) as Promise<{ match_count: number }>
  expect((await concurrent).match_count).toBe(1)
  const err = (await call.catch((e) => e)) as ServiceError
  clearInterval(ticker)
  expect(err).toBeInstanceOf(ServiceError)
  expect(err.status).toBe(422)
  const elapsed = Date.now() - started
  expect(elapsed).toBeLessThan(1500)
  expect(ticks).toBeGreaterThan(elapsed / 10 / 3)
})
