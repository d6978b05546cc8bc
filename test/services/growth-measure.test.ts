/**
 * The growth check of the hostile-input tests (test/support/growth.ts) counts work, not wall time (issue #33): waiting
 * costs nothing, busy processes beside it do not move a linear run's measure, and a quadratic run still shows its 4x.
 */
import { expect, test } from 'bun:test'
import { cpuTime, expectLinearGrowth, measureGrowth } from '../support/growth'

/** n steps of arithmetic: linear work without allocation. */
const linear = (n: number) => {
  let x = 0
  for (let i = 0; i < n * 1_000; i++) x = (x + i * 7) % 1_000_003
  return x
}
/** n² steps. */
const quadratic = (n: number) => {
  let x = 0
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) x = (x + (i ^ j)) % 1_000_003
  return x
}

test('waiting is not work: a call that sleeps 300 ms costs almost no CPU time', async () => {
  // The process's CPU time counts every thread of this test process (bun test runs every file in one): the least of
  // three sleeps, each from a collected heap, as the growth trials take, so that an earlier file's collector or
  // workers winding down are not billed to the sleep.
  let least = Number.POSITIVE_INFINITY
  for (let i = 0; i < 3; i++) {
    Bun.gc(true)
    const t = performance.now()
    const { ms } = await cpuTime(() => Bun.sleep(300))
    expect(performance.now() - t).toBeGreaterThanOrEqual(290)
    least = Math.min(least, ms)
  }
  expect(least).toBeLessThan(100)
})

test('busy processes beside it (a loaded CI) leave a linear call linear', async () => {
  const burners = Array.from({ length: 3 }, () =>
    Bun.spawn([process.execPath, '-e', 'for (;;) {}'], { stdout: 'ignore', stderr: 'ignore' }),
  )
  try {
    await expectLinearGrowth('arithmetic under load', linear, 2_000, { floorMs: 0 })
  } finally {
    for (const b of burners) b.kill('SIGKILL')
    await Promise.all(burners.map((b) => b.exited))
  }
}, 60_000)

test('a quadratic call still shows about 4x when its input doubles', async () => {
  const g = await measureGrowth(quadratic, 3_000, 3)
  expect(g.ratio).toBeGreaterThan(3.2)
}, 60_000)
