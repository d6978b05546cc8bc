/** image-rotate-flip is bounded in pixels: 4096² took 8 times as long as 2048² (2.4 s, 340 MB) and is now a 422. */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'
import { flatPng, hostileGrowth } from '../../test/support/large-inputs'
import { MAX_PIXELS } from './lib'

hostileGrowth(
  'image-rotate-flip',
  'image width at the pixel cap',
  async (n) => ({ image_b64: (await flatPng(n, 2048)).toString('base64'), angle: 90, flip: 'both' }),
  1024,
)

const svc = serviceRunner('image-rotate-flip')
afterAll(svc.close)

test('one pixel over the cap is a 422 that says what to send', async () => {
  const png = await flatPng(2049, 2048)
  const run = await svc.run({ name: 'big', input: { image_b64: png.toString('base64') } })
  expect(String(run.error)).toContain(`send at most ${MAX_PIXELS}`)
}, 60_000)
