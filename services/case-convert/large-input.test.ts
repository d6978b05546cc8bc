/** case-convert answers its largest input quickly. */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'

const svc = serviceRunner('case-convert')
afterAll(svc.close)

test('its largest input is answered quickly', async () => {
  const t = performance.now()
  const run = await svc.run({
    name: 'largest input',
    input: { text: 'parseHTTPResponse_value-x '.repeat(3800), to: 'snake' },
  })
  if (run.error) throw run.error
  expect(performance.now() - t).toBeLessThan(3000)
}, 60_000)
