/** text-diff answers its largest input quickly. */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'

const svc = serviceRunner('text-diff')
afterAll(svc.close)

test('its largest input is answered quickly', async () => {
  const t = performance.now()
  const run = await svc.run({
    name: 'largest input',
    input: { a: 'line one\nline two\n'.repeat(2700), b: 'line one\nline 2\n'.repeat(3000) },
  })
  if (run.error) throw run.error
  expect(performance.now() - t).toBeLessThan(3000)
}, 60_000)
