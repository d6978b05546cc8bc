/**
 * The whole test suite (`npm test`, `bun run scripts/test.ts`, and CI's .ci/run):
 * the generated-index drift check, then every bun:test file (unit, contract, payments on a real local chain,
 * HTTP surfaces, browser), then the benchmark smoke run. Stops at the first failing step.
 */
const bun = process.execPath
const steps: Array<[string, string[]]> = [
  ['registry index is up to date', [bun, 'scripts/gen-registry.ts', '--check']],
  ['typecheck (tsc --noEmit)', [bun, 'x', 'tsc', '--noEmit', '-p', '.']],
  ['Chromium for the browser tests', ['bash', 'scripts/ensure-chromium.sh']],
  ['bun test', [bun, 'test', '--timeout', '120000', ...process.argv.slice(2)]],
  ['wrk for the benchmark smoke run', ['bash', 'scripts/ensure-wrk.sh']],
  ['benchmark smoke run (no timing assertions)', [bun, 'bench/run.ts', '--smoke']],
]
for (const [name, cmd] of steps) {
  console.log(`\n=== ${name}: ${cmd.slice(1).join(' ')}`)
  const p = Bun.spawnSync(cmd, { stdout: 'inherit', stderr: 'inherit', env: { ...process.env } })
  if (p.exitCode !== 0) {
    console.error(`\n=== FAILED: ${name} (exit ${p.exitCode})`)
    process.exit(p.exitCode || 1)
  }
}
console.log('\n=== all steps passed')
