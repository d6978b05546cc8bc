/**
 * The one "doubles the hostile input and bounds the growth" check (issue #24), and the one measure of how much work
 * a call is. A linear service does about twice the work on twice the input; a quadratic one four times.
 *
 * Work is counted as this process's CPU time (`process.cpuUsage()`: user + system, every thread of the process: the
 * handler, the fixture servers it talks to, the garbage collector), never wall time (issue #33): a loaded machine
 * makes a call wait longer for a core, and wall time grows with the load, but the CPU time the call burns barely
 * moves. What is left of the noise (cache misses, a neighbour's hyperthread) is cut by taking, for each size, the
 * least of several alternating runs; a call that stays under `floorMs` of CPU even at the larger size is bounded
 * whatever its ratio (fixed costs dominate there).
 */
import { expect } from 'bun:test'

export interface Growth {
  /** CPU ms of the cheapest run at size n. */
  small: number
  /** CPU ms of the cheapest run at size 2n. */
  large: number
  ratio: number
}

/** CPU time this process has used, in ms. */
const cpuNow = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** The CPU time (ms) this process spends while `run` runs, and its result. */
export async function cpuTime<T>(run: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const t = cpuNow()
  const value = await run()
  return { ms: cpuNow() - t, value }
}

/**
 * Asserts that `run` costs less than `maxMs` of CPU: a blow-up guard (a backtracking regex or a quadratic loop takes
 * minutes), not a benchmark; a loaded machine does not slow it, since waiting for a core costs no CPU.
 */
export async function expectCpuUnder<T>(label: string, maxMs: number, run: () => T | Promise<T>): Promise<T> {
  const { ms, value } = await cpuTime(run)
  expect({ label, cpuMsOver: ms > maxMs ? Math.round(ms) : false }).toEqual({ label, cpuMsOver: false })
  return value
}

/** Cheapest (CPU ms) of `reps` alternating runs at sizes n and 2n (added to `g`'s runs when given). */
export async function measureGrowth(run: (n: number) => unknown, n: number, reps = 3, g?: Growth): Promise<Growth> {
  if (!g) await run(n) // warm-up: JIT, lazy imports
  let small = g?.small ?? Number.POSITIVE_INFINITY
  let large = g?.large ?? Number.POSITIVE_INFINITY
  // Each trial starts from a collected heap, so that collecting an earlier trial's garbage (on the collector's
  // threads, counted in the process's CPU time) is never billed to the trial measured.
  const trial = async (size: number) => {
    Bun.gc(true)
    return (await cpuTime(() => run(size))).ms
  }
  for (let i = 0; i < reps; i++) {
    small = Math.min(small, await trial(n))
    large = Math.min(large, await trial(2 * n))
  }
  return { small, large, ratio: large / Math.max(small, 0.001) }
}

/**
 * Asserts that doubling the input at most `maxRatio`-folds the CPU time (default 3.5: linear is 2, and allocation and
 * GC push linear work to about 3; quadratic is 4), unless the doubled input still costs under `floorMs`. A ratio over
 * the bound is measured again (more runs, the cheapest of all counts) before it fails: a quadratic service stays at 4
 * however often it runs.
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
