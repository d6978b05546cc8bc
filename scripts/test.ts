/**
 * The whole test suite (`npm test`, `bun run scripts/test.ts`, and CI's .ci/run):
 * the generated-index and endpoint-table drift checks, a typecheck, the linter (`npm run lint`), every bun:test file (unit, contract, payments on a real local chain,
 * HTTP surfaces, fuzzing, faults, load, browser, behind nginx, Caddy and HAProxy), then the benchmark smoke run, then
 * (in a git checkout) a check that the run left no file behind in the working tree. Stops at the first failing step
 * and ends with one summary line `tests: N passed, M failed`.
 */
const bun = process.execPath

/** `git status --porcelain` lines (with `--ignored`: ignored entries too), or null outside a git checkout. */
function gitStatus(ignored = false): string[] | null {
  try {
    const p = Bun.spawnSync(['git', 'status', '--porcelain', ...(ignored ? ['--ignored'] : [])], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    return p.exitCode === 0 ? p.stdout.toString().split('\n').filter(Boolean) : null
  } catch {
    return null // no git
  }
}
// What the tree holds before the run (a developer's own edits), so that only what the run leaves is reported.
const before = new Set(gitStatus() ?? [])
const ignoredBefore = new Set(gitStatus(true) ?? [])
const steps: Array<[string, string[]]> = [
  [
    'generated files are up to date (npm run gen: service index, registry hash, docs/upstreams.md)',
    [bun, 'scripts/gen-registry.ts', '--check'],
  ],
  ['docs/configuration.md is up to date', [bun, 'scripts/gen-config-docs.ts', '--check']],
  ['endpoint table of docs/api.md is up to date', [bun, 'scripts/gen-endpoints.ts', '--check']],
  ['contract artifacts are up to date (solc)', [bun, 'scripts/contracts-build.ts', '--check']],
  ['typecheck (tsc --noEmit)', [bun, 'x', 'tsc', '--noEmit', '-p', '.']],
  ['lint (Biome format + lint, knip: unused files and dependencies)', [bun, 'run', 'lint']],
  ['Chromium for the browser tests', ['bash', 'scripts/ensure-chromium.sh']],
  [
    "nginx, Caddy and HAProxy for the proxy tests (Debian's packages, installed with apt-get when missing)",
    ['bash', 'scripts/ensure-proxies.sh'],
  ],
  ['Prometheus for the alert-rule and scrape tests', ['bash', 'scripts/ensure-prometheus.sh']],
  ['bun test', [bun, 'test', '--timeout', '120000', ...process.argv.slice(2)]],
  ['wrk for the benchmark smoke run (installed with apt-get when missing)', ['bash', 'scripts/ensure-wrk.sh']],
  ['benchmark smoke run (no timing assertions)', [bun, 'bench/run.ts', '--smoke']],
]
let passed = 0
let failed = 0
for (const [name, cmd] of steps) {
  console.log(`\n=== ${name}: ${cmd.slice(1).join(' ')}`)
  const counting = name === 'bun test'
  const p = Bun.spawn(cmd, { stdout: 'inherit', stderr: counting ? 'pipe' : 'inherit', env: { ...process.env } })
  if (counting) {
    // bun test reports on stderr; pass it through and read its closing counts
    let tail = ''
    const decoder = new TextDecoder()
    for await (const chunk of p.stderr as ReadableStream<Uint8Array>) {
      const text = decoder.decode(chunk)
      process.stderr.write(text)
      tail = (tail + text).slice(-4000)
    }
    passed = Number(tail.match(/^\s*(\d+) pass$/m)?.[1] ?? 0)
    failed = Number(tail.match(/^\s*(\d+) fail$/m)?.[1] ?? 0)
  }
  const code = await p.exited
  if (code !== 0) {
    console.error(`\n=== FAILED: ${name} (exit ${code})`)
    console.log(`tests: ${passed} passed, ${Math.max(failed, 1)} failed`)
    process.exit(code || 1)
  }
}

// Tests and benchmarks write into temp dirs, never into the checkout (a key or a database left there would be
// committed by the next `git add .`, or signed with by the next boot). Screenshots go to test-artifacts/ (ignored).
const after = gitStatus()
if (after) {
  console.log('\n=== nothing left in the working tree (git status --porcelain)')
  const left = after.filter((l) => !before.has(l))
  if (left.length) {
    console.error(
      `\n=== FAILED: the run left files in the working tree (tests must write to temp dirs):\n${left.join('\n')}`,
    )
    console.log(`tests: ${passed} passed, ${Math.max(failed, 1)} failed`)
    process.exit(1)
  }
  const ignoredLeft = (gitStatus(true) ?? []).filter(
    (l) => !ignoredBefore.has(l) && !l.startsWith('!! test-artifacts/'),
  )
  if (ignoredLeft.length) console.warn(`note: new ignored files in the working tree:\n${ignoredLeft.join('\n')}`)
}
console.log('\n=== all steps passed')
console.log(`tests: ${passed} passed, ${failed} failed`)
export {}
