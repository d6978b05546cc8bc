import type { Config } from '../../config'
import type { Storage } from '../store'
import { droppedCounters } from '../batched'
import type { Logger } from '../../sdk'
import { PgAdminQueries } from './admin-queries'
import { PgChannels } from './channels'
import { PgSessionGeneration } from './admin-state'
import { PgErrorCounts } from './error-counts'
import { openPostgres, withTimeout } from './connect'
import { PgLedger } from './ledger'
import { PgQuota } from './quota'
import { PgResultStore } from './results'
import { PgStats } from './stats'
import { PgThrottle } from './throttle'
import { PAYER_FAILED_RUNS, PAYER_FAILED_RUNS_WINDOW_MS, SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS } from '../throttle'

/** The Postgres storage: the contract's stores, shared by every instance. */
export interface PostgresStorage extends Storage {
  kind: 'postgres'
}

/** The Postgres storage (DATABASE_URL); loaded by openStorage only when it is configured. Throws DatabaseUnavailable. */
export async function openPostgresStorage(
  config: Config,
  instanceId: string,
  limits: { maxBodyBytes: number; maxTotalBytes: number },
  log?: Pick<Logger, 'warn'>,
): Promise<PostgresStorage> {
  const sql = await openPostgres({
    url: config.database.url,
    poolMax: config.database.poolMax,
    statementTimeoutMs: config.database.statementTimeoutMs,
  })
  const stats = new PgStats(sql, undefined, undefined, droppedCounters(log, 'stats'))
  const errorCounts = new PgErrorCounts(sql, undefined, undefined, droppedCounters(log, 'error counts'))
  return {
    kind: 'postgres',
    ledger: new PgLedger(sql, instanceId),
    stats,
    quota: new PgQuota(sql, config.demo.dailyLimit),
    results: new PgResultStore(sql, limits),
    refusals: new PgThrottle(sql, config.invalidPaymentLimit),
    signIns: new PgThrottle(sql, SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS, undefined, 'sign-in'),
    failingRuns: new PgThrottle(sql, PAYER_FAILED_RUNS, PAYER_FAILED_RUNS_WINDOW_MS, undefined, 'failed-runs'),
    admin: new PgAdminQueries(sql),
    errorCounts,
    sessionGeneration: new PgSessionGeneration(sql),
    channels: new PgChannels(sql),
    ping: () =>
      withTimeout(sql`SELECT 1`, 2000).then(
        () => true,
        () => false,
      ),
    async close() {
      await stats.close()
      await errorCounts.close()
      await sql.close({ timeout: 5 })
    },
  }
}
