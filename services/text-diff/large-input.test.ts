/** text-diff answers its largest input quickly (under 3 s of CPU: a loaded machine does not slow that down). */
import { afterAll, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'
import { expectCpuUnder } from '../../test/support/growth'

const svc = serviceRunner('text-diff')
afterAll(svc.close)

test('its largest input is answered quickly', async () => {
  const run = await expectCpuUnder('largest input', 3000, () =>
    svc.run({
      name: 'largest input',
      input: { a: 'line one\nline two\n'.repeat(2700), b: 'line one\nline 2\n'.repeat(3000) },
    }),
  )
  if (run.error) throw run.error
}, 60_000)
