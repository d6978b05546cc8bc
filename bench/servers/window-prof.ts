/**
 * Preloaded into a bench's server (`bun --preload bench/servers/window-prof.ts …`): a CPU profile of the main thread
 * over a window the bench chooses, not the whole process (`bun --cpu-prof` covers boot, deposits and the shutdown's
 * claims too, whose shares then mislead). SIGUSR2 starts the profiler (node:inspector, 100 µs sampling); the next
 * SIGUSR2 stops it and writes `WINDOW_PROF_DIR/window-<pid>-<n>.cpuprofile` (Chrome's format; bench/profile-summary.ts
 * reads it), then prints `WINDOW_PROF <path>` on stdout.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Session } from 'node:inspector'

const dir = process.env.WINDOW_PROF_DIR
if (dir) {
  const s = new Session()
  s.connect()
  const post = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => s.post(method, params, (e, r) => (e ? reject(e) : resolve(r as T))))
  let on = false
  let n = 0
  await post('Profiler.enable')
  await post('Profiler.setSamplingInterval', { interval: Number(process.env.WINDOW_PROF_US ?? 100) })
  process.on('SIGUSR2', async () => {
    if (!on) {
      on = true
      await post('Profiler.start')
      return
    }
    on = false
    const { profile } = await post<{ profile: unknown }>('Profiler.stop')
    const path = join(dir, `window-${process.pid}-${n++}.cpuprofile`)
    writeFileSync(path, JSON.stringify(profile))
    console.log(`WINDOW_PROF ${path}`)
  })
}
