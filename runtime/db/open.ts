import type { Database } from 'bun:sqlite'
import { hostname } from 'node:os'
import type { Config } from '../config'
import { Ledger } from './ledger'
import { DailyQuota } from './quota'
import { ResultStore } from './results'
import { openDatabase } from './sqlite'
import { Stats } from './stats'
import type {
  ChannelStore,
  ErrorCountStore,
  LedgerStore,
  QuotaStore,
  ResultStoreLike,
  SessionGenerationStore,
  StatsStore,
  ThrottleStore,
} from './store'
import { SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS, Throttle } from '../http/throttle'
import { AdminQueries, type AdminReads } from './admin-queries'
import { ErrorCounts } from './error-counts'
import { SessionGeneration } from './admin-state'
import { droppedCounters } from './batched'
import { Channels } from './sqlite/channels'
import type { Logger } from '../sdk'

/** Everything the server keeps, on one engine: the embedded SQLite file, or a Postgres shared by N instances. */
export interface Storage {
  kind: 'sqlite' | 'postgres'
  ledger: LedgerStore
  stats: StatsStore
  quota: QuotaStore
  results: ResultStoreLike
  /** Costly payment refusals per client / payer per minute (in memory on SQLite: one process). */
  refusals: ThrottleStore
  /** Failed console sign-ins per client per 5 minutes (in memory on SQLite; shared by every instance on Postgres). */
  signIns: ThrottleStore
  /** The operator console's reads. */
  admin: AdminReads
  /** The console's error answers by code (batched like the stats counters) and its session generation. */
  errorCounts: ErrorCountStore
  sessionGeneration: SessionGenerationStore
  /** Payment channels (x402 batch-settlement): state per channel, charges, claims and sweeps. */
  channels: ChannelStore
  /** The SQLite handle (operator console queries, backups); absent on Postgres. */
  sqlite?: Database
  /** True when the database answers (within 2 s). */
  ping(): Promise<boolean>
  /** Flushes and closes (stats, results, connections). */
  close(): Promise<void>
}

/** This process's id on a shared database: INSTANCE_ID, else host and pid (a restarted process is a new instance). */
export const instanceIdOf = (config: Config) =>
  config.database.instanceId || `${hostname().slice(0, 40)}-${process.pid}`

/**
 * Opens the configured storage: Postgres when DATABASE_URL is set (throws DatabaseUnavailable), else SQLite. `log`
 * hears of counters lost at shutdown (a failed last flush).
 */
export async function openStorage(config: Config, log?: Pick<Logger, 'warn'>): Promise<Storage> {
  const limits = { maxBodyBytes: 1_048_576, maxTotalBytes: config.paidResultsMaxBytes }
  // Postgres modules load only when DATABASE_URL is set (literal specifier: still bundled in the binary).
  if (config.database.url)
    return (await import('./postgres/open')).openPostgresStorage(config, instanceIdOf(config), limits, log)
  const db = openDatabase(config.databasePath)
  const stats = new Stats(db, undefined, undefined, droppedCounters(log, 'stats'))
  const errorCounts = new ErrorCounts(db, undefined, undefined, droppedCounters(log, 'error counts'))
  const results = new ResultStore(db, limits)
  const ping = db.prepare('SELECT 1')
  return {
    kind: 'sqlite',
    ledger: new Ledger(db),
    stats,
    quota: new DailyQuota(db, config.demo.dailyLimit),
    results,
    refusals: new Throttle(config.invalidPaymentLimit),
    signIns: new Throttle(SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS),
    admin: new AdminQueries(db),
    errorCounts,
    sessionGeneration: new SessionGeneration(db),
    channels: new Channels(db),
    sqlite: db,
    ping: async () => {
      try {
        ping.get()
        return true
      } catch {
        return false
      }
    },
    async close() {
      results.close()
      stats.close()
      errorCounts.close()
    },
  }
}
