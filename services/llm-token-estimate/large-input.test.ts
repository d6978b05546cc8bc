/** llm-token-estimate answers its largest input quickly. */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'
import { prose } from '../../test/support/large-inputs'

const svc = serviceRunner('llm-token-estimate')
afterAll(svc.close)

test('its largest input is answered quickly', async () => {
  const t = performance.now()
  const run = await svc.run({ name: 'largest input', input: { text: prose(2_000_000) } })
  if (run.error) throw run.error
  expect(performance.now() - t).toBeLessThan(3000)
}, 60_000)
