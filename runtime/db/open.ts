import { hostname } from 'node:os'
import type { Config } from '../config'
import type { Logger } from '../sdk'
import type { PostgresStorage } from './postgres/open'
import { openSqliteStorage, type SqliteStorage } from './sqlite/open'

/**
 * The storage as opened: one engine, told apart by `kind`. The SQLite side also carries its handle and synchronous
 * types (`sqliteOf`); code that runs on both engines uses the contract (Storage, runtime/db/store.ts).
 */
export type OpenedStorage = SqliteStorage | PostgresStorage

/** This process's id on a shared database: INSTANCE_ID, else host and pid (a restarted process is a new instance). */
export const instanceIdOf = (config: Config) =>
  config.database.instanceId || `${hostname().slice(0, 40)}-${process.pid}`

/**
 * Opens the configured storage, the only place that picks an engine: Postgres when DATABASE_URL is set (throws
 * DatabaseUnavailable), else SQLite. `log` hears of counters lost at shutdown (a failed last flush).
 */
export async function openStorage(config: Config, log?: Pick<Logger, 'warn'>): Promise<OpenedStorage> {
  const limits = { maxBodyBytes: 1_048_576, maxTotalBytes: config.paidResultsMaxBytes }
  // Postgres modules load only when DATABASE_URL is set (literal specifier: still bundled in the binary).
  if (config.database.url)
    return (await import('./postgres/open')).openPostgresStorage(config, instanceIdOf(config), limits, log)
  return openSqliteStorage(config, limits, log)
}

/**
 * The SQLite storage (its handle, and its stores with synchronous reads) of an opened storage or a booted server,
 * for what only SQLite has: tests and tools that read the file directly. Throws on Postgres rather than hand out
 * undefined.
 */
export function sqliteOf(x: OpenedStorage | { storage: OpenedStorage }): SqliteStorage {
  const storage = 'kind' in x ? x : x.storage
  if (storage.kind !== 'sqlite')
    throw new Error(`this needs the SQLite storage; the server runs on ${storage.kind} (DATABASE_URL is set)`)
  return storage
}
