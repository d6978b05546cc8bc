import type { Database } from 'bun:sqlite'
import type { Config } from '../../config'
import { PAYER_FAILED_RUNS, PAYER_FAILED_RUNS_WINDOW_MS, SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS, Throttle } from '../throttle'
import type { Logger } from '../../sdk'
import { droppedCounters } from '../batched'
import type { Storage } from '../store'
import { AdminQueries } from './admin-queries'
import { SessionGeneration } from './admin-state'
import { openDatabase } from './connect'
import { ErrorCounts } from './error-counts'
import { Ledger } from './ledger'
import { DailyQuota } from './quota'
import { ResultStore } from './results'
import { Stats } from './stats'
import { Channels } from './channels'

/**
 * The SQLite storage: the contract's stores with their SQLite types (synchronous reads, for tests, benchmarks and
 * operator scripts), and the handle itself (backups, the console's queries).
 */
export interface SqliteStorage extends Storage {
  kind: 'sqlite'
  db: Database
  ledger: Ledger
  stats: Stats
  quota: DailyQuota
  results: ResultStore
  admin: AdminQueries
  errorCounts: ErrorCounts
  sessionGeneration: SessionGeneration
  channels: Channels
}

/** The embedded SQLite storage at DATABASE_PATH (the default engine). `log` hears of counters lost at shutdown. */
export function openSqliteStorage(
  config: Config,
  limits: { maxBodyBytes: number; maxTotalBytes: number },
  log?: Pick<Logger, 'warn'>,
): SqliteStorage {
  const db = openDatabase(config.databasePath)
  const stats = new Stats(db, undefined, undefined, droppedCounters(log, 'stats'))
  const errorCounts = new ErrorCounts(db, undefined, undefined, droppedCounters(log, 'error counts'))
  const results = new ResultStore(db, limits)
  const ping = db.prepare('SELECT 1')
  return {
    kind: 'sqlite',
    db,
    ledger: new Ledger(db),
    stats,
    quota: new DailyQuota(db, config.demo.dailyLimit),
    results,
    refusals: new Throttle(config.invalidPaymentLimit),
    signIns: new Throttle(SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS),
    failingRuns: new Throttle(PAYER_FAILED_RUNS, PAYER_FAILED_RUNS_WINDOW_MS),
    admin: new AdminQueries(db),
    errorCounts,
    sessionGeneration: new SessionGeneration(db),
    channels: new Channels(db),
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
