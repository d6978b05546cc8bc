// `npm start` runs the server as a compiled binary kept in .cache/start/ (git-ignored), built once from the sources
// and reused while they are unchanged (issue #38). The binary is package.json's `build` (bun build --compile
// --splitting --bytecode): every module precompiled to bytecode, so a boot parses and resolves nothing (~75 ms to
// listening on a quiet machine, against ~390 ms for `bun runtime/index.ts`, docs/benchmarks.md §13).
//
// The key of a build is a fingerprint of what goes into it: the path, size and modification time of every file under
// runtime/, services/ and contracts/ (tests left out), registry.yaml, package.json, package-lock.json, tsconfig.json,
// Bun itself and the build command. An edited file, a new service folder (with its generated index) or another
// checkout gives a new key, hence a new build (10–30 s and ~0.9 GB of memory, reported apart from the boot). A build
// that fails leaves the start to the sources, with one line saying why (and is not tried again for the same sources).
// Only the newest build is kept.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { constants } from 'node:os'
import { join, relative } from 'node:path'

const TOP_FILES = ['registry.yaml', 'package.json', 'package-lock.json', 'tsconfig.json', 'bunfig.toml']
const TREES = ['runtime', 'services', 'contracts']
const BINARY = process.platform === 'win32' ? 'x402-api.exe' : 'x402-api'

/** The cache folder of the start binary. */
export const cacheDir = (root) => join(root, '.cache', 'start')

/** Whether the fingerprint covers a file (a path relative to the repository) of the build's graph. */
export const covers = (file) =>
  TOP_FILES.includes(file) || (TREES.some((t) => file.startsWith(`${t}/`)) && !file.endsWith('.test.ts'))

/** Fingerprint of the sources a start binary is built from (stat only: ~5 ms for ~800 files). */
export function sourcesKey(root, bun) {
  const lines = []
  const add = (file) => {
    const s = statSync(file, { throwIfNoEntry: false })
    if (s?.isFile()) lines.push(`${relative(root, file)}\0${s.size}\0${s.mtimeMs}`)
  }
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name)
      if (e.isDirectory()) walk(path)
      else if (!e.name.endsWith('.test.ts')) add(path)
    }
  }
  for (const t of TREES) if (existsSync(join(root, t))) walk(join(root, t))
  for (const f of TOP_FILES) add(join(root, f))
  const real = realpathSync(bun)
  const b = statSync(real)
  lines.sort()
  lines.push(`bun\0${real}\0${b.size}\0${b.mtimeMs}\0${process.platform}\0${process.arch}`)
  lines.push(`build\0${buildArgs(root, BINARY).join(' ')}`)
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)
}

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Where the binary of a key lives. */
export const binaryPath = (root, key) => join(cacheDir(root), key, BINARY)

/** package.json's `build` command (its last part, `bun build … --outfile dist/x402-api`), with `out` as the output. */
function buildArgs(root, out) {
  const build = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    .scripts.build.split('&&')
    .pop()
    .trim()
  const words = build.split(/\s+/)
  if (words[0] !== 'bun' || !words.includes('--compile')) throw new Error(`unexpected build script: ${build}`)
  // `--env=disable`: NODE_ENV read when the server runs, as the sources do (by default `bun build` writes
  // "development" into the bundle in its place, whatever the server's environment says later).
  const args = words.slice(1).map((a, i, all) => (all[i - 1] === '--outfile' ? out : a))
  return args.includes('--env=disable') ? args : [...args, '--env=disable']
}

/** Runs `bun build`, its output kept (shown only when it fails); a stop signal stops it and this process. */
function build(root, bun, args) {
  return new Promise((resolve) => {
    const child = spawn(bun, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    const stop = (sig) => {
      child.kill(sig)
      process.exit(128 + (constants.signals[sig] ?? 0))
    }
    const signals = ['SIGTERM', 'SIGINT', 'SIGHUP']
    for (const sig of signals) process.on(sig, stop)
    const done = (code) => {
      for (const sig of signals) process.off(sig, stop)
      resolve({ code, output })
    }
    child.on('error', (e) => {
      output += e.message
      done(1)
    })
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)))
  })
}

/**
 * The start binary for the sources as they are now: the cached one, else built now. Null when the build failed (the
 * caller starts from the sources). `say` prints one line to stderr.
 */
export async function startBinary(root, bun, say) {
  const key = sourcesKey(root, bun)
  const bin = binaryPath(root, key)
  if (existsSync(bin)) return bin
  const dir = cacheDir(root)
  // A build that failed is not tried again for the same sources (it costs 10–30 s of CPU and ~0.9 GB of memory: a
  // machine short of either would pay it at every start); a change of the sources, or removing .cache/, tries again.
  const failed = join(dir, `failed-${key}.txt`)
  if (existsSync(failed)) {
    say(
      `the server binary did not build from these sources before (${readFileSync(failed, 'utf8')}); starting from the sources (a slower boot; remove .cache/ to try the build again).`,
    )
    return null
  }
  mkdirSync(dir, { recursive: true })
  // One build at a time per checkout (instances started together): a start that finds another one building waits for
  // it, then looks again. A lock whose process is gone (killed mid-build) is taken over.
  const lock = join(dir, 'building.pid')
  for (let told = false; ; ) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' })
      break
    } catch (e) {
      if (e.code !== 'EEXIST') throw e
    }
    const owner = Number(readFileSync(lock, 'utf8'))
    if (!alive(owner)) {
      rmSync(lock, { force: true })
      continue
    }
    if (!told) say(`another start (pid ${owner}) is building the server binary: waiting for it.`)
    told = true
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  try {
    if (existsSync(bin)) return bin // built by the start this one waited for
    return await buildInto(root, bun, say, key)
  } finally {
    rmSync(lock, { force: true })
  }
}

/** Builds the binary of `key` (in a staging folder, then moved in place); null when the build failed. */
async function buildInto(root, bun, say, key) {
  const dir = cacheDir(root)
  const bin = binaryPath(root, key)
  const staging = join(dir, `building-${process.pid}-${Date.now()}`)
  mkdirSync(staging, { recursive: true })
  say(
    'building the server binary for `npm start` (the sources changed, or the first start): bun build --compile --bytecode, once per change (10–30 s)...',
  )
  const started = Date.now()
  const timer = setInterval(() => say(`still building (${Math.round((Date.now() - started) / 1000)} s)`), 15_000)
  let result
  try {
    result = await build(root, bun, buildArgs(root, join(staging, BINARY)))
  } catch (e) {
    result = { code: 1, output: e.message }
  } finally {
    clearInterval(timer)
  }
  if (result.code !== 0 || !existsSync(join(staging, BINARY))) {
    rmSync(staging, { recursive: true, force: true })
    const why = `exit ${result.code}: ${result.output.trim().split('\n').filter(Boolean).slice(-3).join(' / ')}`
    writeFileSync(join(dir, `failed-${key}.txt`), why)
    say(`the server binary did not build (${why}); starting from the sources (a slower boot).`)
    return null
  }
  renameSync(staging, join(dir, key))
  // Only the newest build is kept (a running server keeps its own open), and no staging folder of a killed build.
  for (const e of readdirSync(dir)) {
    const pid = Number(e.match(/^building-(\d+)-/)?.[1])
    if ((e !== key && /^[0-9a-f]{16}$/.test(e)) || /^failed-/.test(e) || (pid && !alive(pid)))
      try {
        rmSync(join(dir, e), { recursive: true, force: true })
      } catch {} // in use (a running server's binary on Windows): removed by a later build
  }
  say(
    `built in ${((Date.now() - started) / 1000).toFixed(1)} s (${relative(root, bin)}); the boot's own clock follows.`,
  )
  return bin
}
