/**
 * The one "doubles the hostile input and bounds the growth" check (issue #24). A linear service takes about twice as
 * long on twice the input; a quadratic one four times. Timing on a shared 2-core machine is noisy, so each size runs
 * several times alternately and the fastest run of each counts; a call that stays under `floorMs` even at the larger
 * size is bounded whatever its ratio (fixed costs dominate there).
 */
import { expect } from 'bun:test'

export interface Growth {
  small: number
  large: number
  ratio: number
}

/** Fastest of `reps` alternating runs at sizes n and 2n, in ms (added to `g`'s runs when given). */
export async function measureGrowth(run: (n: number) => unknown, n: number, reps = 3, g?: Growth): Promise<Growth> {
  if (!g) await run(n) // warm-up: JIT, lazy imports
  let small = g?.small ?? Number.POSITIVE_INFINITY
  let large = g?.large ?? Number.POSITIVE_INFINITY
  for (let i = 0; i < reps; i++) {
    let t = performance.now()
    await run(n)
    small = Math.min(small, performance.now() - t)
    t = performance.now()
    await run(2 * n)
    large = Math.min(large, performance.now() - t)
  }
  return { small, large, ratio: large / Math.max(small, 0.001) }
}

/**
 * Asserts that doubling the input at most `maxRatio`-folds the time (default 3.5: linear is 2, and allocation and GC
 * push linear work on a loaded machine to about 3; quadratic is 4), unless
 * the doubled input still runs under `floorMs`. A ratio over the bound is measured again (more runs, fastest of all
 * counts) before it fails: a busy machine slows single runs, a quadratic service stays at 4 however often it runs.
 */
export async function expectLinearGrowth(
  label: string,
  run: (n: number) => unknown,
  n: number,
  { maxRatio = 3.5, floorMs = 40, reps = 3 }: { maxRatio?: number; floorMs?: number; reps?: number } = {},
): Promise<Growth> {
  const ok = (g: Growth) => g.large < floorMs || g.ratio <= maxRatio
  let g = await measureGrowth(run, n, reps)
  for (let again = 0; again < 2 && !ok(g); again++) g = await measureGrowth(run, n, reps + 1, g)
  const bounded = ok(g)
  expect({ label, bounded, ...(bounded ? {} : g) }).toEqual({ label, bounded: true })
  return g
}
