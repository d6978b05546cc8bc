/** Waits until `cond` holds, polling every 10 ms; fails after `ms` naming `what`. No fixed sleeps in tests: wait for this. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 30_000, what = 'condition'): Promise<void> {
  const t0 = Date.now()
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`${what} not met within ${ms} ms`)
    await Bun.sleep(10)
  }
}
