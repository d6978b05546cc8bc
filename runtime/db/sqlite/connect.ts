import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { MIGRATIONS } from './schema'

/**
 * Opens (creating if needed) the database at `path` (`:memory:` for tests): WAL journal, synchronous=NORMAL.
 * Every commit survives a process crash (kill -9); only the commits made by `durably` also survive a power cut.
 */
export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;',
  )
  migrate(db)
  return db
}

/*
 * Durability of SQLite commits (the mechanism; which write needs it is decided in runtime/db/sqlite/ledger.ts). In WAL
 * mode a commit is written to the WAL file (the OS page cache) at once, so it survives the process dying at any
 * moment; `synchronous` decides whether the commit also waits for an fsync of the WAL, i.e. survives a power cut or
 * a kernel panic. NORMAL (the connection's level) does not; FULL does, and that fsync also makes every earlier
 * commit durable (they are earlier in the same WAL, or were checkpointed, which syncs, into the database file).
 * A paid call needs exactly one such commit: the `settling` row written before its transfer is broadcast (the point
 * of no return). Everything before it may be lost to a power cut harmlessly (nothing was broadcast, no result was
 * served); everything after it is rebuilt from the chain by the reconciler, which finds the durable `settling` row
 * at boot. Postgres commits are durable anyway (runtime/db/postgres).
 */
const durableCount = new WeakMap<Database, number>()
const flushers = new WeakMap<Database, Array<() => void>>()

/**
 * Registers a writer of buffered rows (kept results, runtime/db/sqlite/results.ts) to run before each durable commit, so
 * the fsync covers what it buffered. Its failure never blocks the durable write (those rows are lost, as on a crash).
 */
export function beforeDurable(db: Database, flush: () => void): void {
  flushers.set(db, [...(flushers.get(db) ?? []), flush])
}

/**
 * Runs `fn` in one transaction committed with synchronous=FULL (an fsync of the WAL before it returns), then puts
 * the connection back to NORMAL. Not inside another transaction: SQLite applies the level in force at the outer
 * commit, so a nested call could not keep its promise (throws instead).
 */
export function durably<T>(db: Database, fn: () => T): T {
  if (db.inTransaction) throw new Error('durably() cannot run inside another transaction')
  for (const flush of flushers.get(db) ?? []) {
    try {
      flush()
    } catch {
      /* buffered rows lost; the durable write goes on */
    }
  }
  // db.query: compiled once per connection (bun:sqlite caches it), not parsed on each durable commit.
  db.query('PRAGMA synchronous = FULL').run()
  try {
    const out = db.transaction(fn)()
    durableCount.set(db, (durableCount.get(db) ?? 0) + 1)
    return out
  } finally {
    db.query('PRAGMA synchronous = NORMAL').run()
  }
}

/** How many `durably` commits (fsync'd) this connection has made: for tests and benchmarks. */
export const durableCommits = (db: Database): number => durableCount.get(db) ?? 0

function migrate(db: Database): void {
  const current = (db.query('PRAGMA user_version').get() as { user_version: number }).user_version
  if (current > MIGRATIONS.length)
    throw new Error(`database schema version ${current} is newer than this build (${MIGRATIONS.length})`)
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v])
      db.exec(`PRAGMA user_version = ${v + 1}`)
    })()
  }
}
