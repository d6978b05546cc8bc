/** text-stats answers its largest input quickly (under 3 s of CPU: a loaded machine does not slow that down). */
import { afterAll, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'
import { expectCpuUnder } from '../../test/support/growth'
import { prose } from '../../test/support/large-inputs'

const svc = serviceRunner('text-stats')
afterAll(svc.close)

test('its largest input is answered quickly', async () => {
  const run = await expectCpuUnder('largest input', 3000, () =>
    svc.run({ name: 'largest input', input: { text: prose(1_000_000) } }),
  )
  if (run.error) throw run.error
}, 60_000)
