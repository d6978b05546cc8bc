/**
 * Preloaded by bench/boot.ts (`bun --preload bench/servers/boot-probe.ts runtime/index.ts`): at the process's first
 * `Bun.serve` (the server starts listening) it prints one line `BOOT-PROBE {json}` with the modules loaded so far, the
 * process's CPU time (user + system) and its own clock since process start. CPU time and module counts do not depend
 * on a quiet machine the way wall-clock times do.
 */
const serve = Bun.serve
let reported = false
Bun.serve = ((options: Parameters<typeof Bun.serve>[0]) => {
  if (!reported) {
    reported = true
    const cpu = process.cpuUsage()
    const line = {
      modules: Object.keys(require.cache).length,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      sinceStartMs: Math.round(performance.now()),
    }
    process.stdout.write(`BOOT-PROBE ${JSON.stringify(line)}\n`)
  }
  return serve(options)
}) as typeof Bun.serve
