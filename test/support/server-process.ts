/** The server as its own process (`runtime/index.ts`, the production listen options), and its SQLite file read from outside. */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild, type Child } from '../../bench/lib'

/** Env for a server whose chain is never reached: every request of such a test is refused before payment work. */
export const UNREACHABLE_CHAIN = {
  RPC_URL: 'http://127.0.0.1:9',
  SETTLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
}

/** Env for instance `id` on the shared Postgres at `url` (the SQLite path is one that must never be opened). */
export const onPostgres = (url: string, id: string, poolMax: number) => ({
  DATABASE_URL: url,
  DATABASE_POOL_MAX: String(poolMax),
  INSTANCE_ID: id,
  DATABASE_PATH: '/nonexistent/never-used.sqlite',
})

/**
 * Starts `runtime/index.ts` on 127.0.0.1 at a port the OS picks, silent unless `env` sets LOG_LEVEL. Without
 * DATABASE_PATH in `env` it gets a fresh SQLite file in a temp dir, removed by stop().
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<Child> {
  const dir = env.DATABASE_PATH === undefined ? mkdtempSync(join(tmpdir(), 'server-process-')) : undefined
  const c = await startChild(
    [process.execPath, 'runtime/index.ts'],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ...(dir ? { DATABASE_PATH: join(dir, 'db.sqlite') } : {}),
      ...env,
    },
    timeoutMs,
  ).catch((e) => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    throw e
  })
  if (!dir) return c
  return {
    ...c,
    async stop() {
      await c.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Runs `read` on the SQLite file at `path` opened read-only (a server process may be writing it), then closes it. */
export function readDb<T>(path: string, read: (db: Database) => T): T {
  const db = new Database(path, { readonly: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

export type PaymentRow = { id: number; state: string; tx_hash: string | null; amount: string }

/** The ledger's payment rows in the SQLite file at `path`, oldest first. */
export const paymentRows = (path: string): PaymentRow[] =>
  readDb(path, (db) => db.query('SELECT id, state, tx_hash, amount FROM payments ORDER BY id').all() as PaymentRow[])

/**
 * Runs `runtime/index.ts` with `env` (over PATH and HOME only) until it exits by itself: for starts that must fail.
 * Killed after `timeoutMs` (then `code` is null).
 */
export async function runServerProcessToExit(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, 'runtime/index.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => proc.kill(), timeoutMs)
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  const code = await proc.exited
  clearTimeout(timer)
  return { code: proc.signalCode ? null : code, stdout, stderr }
}
