#!/usr/bin/env node
// Makes every `npm run …` (start, test, demo, gen, backup, …) work on a fresh machine with only Node.js >= 20 and
// npm: installs the locked dependencies (Bun itself comes from npm) when they are missing or stale, then runs Bun
// with the given arguments from the repository root. Usage: node scripts/bootstrap.mjs <bun arguments...>
//
// It never changes a tracked file: the install is `npm ci` (exactly package-lock.json, which lists every
// platform's optional packages, so npm has nothing to add). Its output goes to stderr, so stdout carries only
// Bun's (the stdio MCP bridge speaks JSON-RPC on stdout), and a progress line is printed every 15 s.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join, dirname } from 'node:path'
import { constants } from 'node:os'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const modules = join(root, 'node_modules')
const bun = join(modules, '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun')
const stamp = join(modules, '.lock-hash')
const lockHash = createHash('sha256')
  .update(readFileSync(join(root, 'package-lock.json')))
  .digest('hex')

const osSignals = constants.signals
const say = (line) => process.stderr.write(`[bootstrap] ${line}\n`)

/** Runs a command with stdout sent to stderr; resolves to its exit code. */
const run = (cmd, args, onTick) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] })
    const timer = onTick ? setInterval(onTick, 15_000) : null
    child.on('error', (e) => {
      say(`cannot run ${cmd}: ${e.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer)
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

if (!existsSync(bun) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== lockHash) {
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

const child = spawn(bun, process.argv.slice(2), { cwd: root, stdio: 'inherit' })
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
  say(`cannot run ${bun}: ${e.message}`)
  process.exit(1)
})
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (osSignals[signal] ?? 0) : 0)))
