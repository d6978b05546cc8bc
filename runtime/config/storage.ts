/** Storage: the embedded SQLite file or a shared Postgres, reconciliation of unfinished payments, receipt key. */
import type { Config } from './types'
import { type Reader, variable } from './declare'

export const DATABASE_PATH = variable({
  name: 'DATABASE_PATH',
  yaml: 'server.database_path',
  default: './data/api.sqlite',
  concern: 'storage',
  description: 'the SQLite file (ledger, stats, demo quota, kept results, refusal throttle)',
})
export const DATABASE_URL = variable({
  name: 'DATABASE_URL',
  concern: 'storage',
  valid: 'a postgres:// URL',
  description:
    '`postgres://…`: keep the ledger, stats, demo quota, kept results and refusal throttle in one Postgres shared by N instances instead of SQLite (see docs/deploy.md); boot refuses to start when it is unreachable',
})
export const DATABASE_POOL_MAX = variable({
  name: 'DATABASE_POOL_MAX',
  default: 10,
  min: 2,
  concern: 'storage',
  description: 'Postgres connections per instance (the reconciler holds one for its lock)',
})
export const DATABASE_STATEMENT_TIMEOUT_MS = variable({
  name: 'DATABASE_STATEMENT_TIMEOUT_MS',
  default: 5000,
  min: 100,
  concern: 'storage',
  description: "each Postgres connection's `statement_timeout`",
})
export const INSTANCE_ID = variable({
  name: 'INSTANCE_ID',
  defaultText: 'host name + pid',
  concern: 'storage',
  valid: '1-64 letters, digits, . _ : -',
  description:
    "this instance's id on the rows it reserves (Postgres; set a stable one per instance). Each instance also needs its own settler key(s): never share one between instances",
})
export const RECONCILE_STALE_MS = variable({
  name: 'RECONCILE_STALE_MS',
  default: 600_000,
  min: 1000,
  concern: 'storage',
  description: 'unfinished payments older than this are reconciled (on Postgres also the rows of a dead instance)',
})
export const RECONCILE_EVERY_MS = variable({
  name: 'RECONCILE_EVERY_MS',
  default: 30_000,
  min: 100,
  concern: 'storage',
  description: 'how often reconciliation runs (one instance at a time on Postgres)',
})
export const RECEIPT_SIGNING_KEY = variable({
  name: 'RECEIPT_SIGNING_KEY',
  defaultText: 'a generated key kept beside the database',
  concern: 'storage',
  description: 'signs the receipts of paid calls: a private P-256 JWK as JSON (see docs/receipts.md)',
})

export const storageVariables = [
  DATABASE_PATH,
  DATABASE_URL,
  DATABASE_POOL_MAX,
  DATABASE_STATEMENT_TIMEOUT_MS,
  INSTANCE_ID,
  RECONCILE_STALE_MS,
  RECONCILE_EVERY_MS,
  RECEIPT_SIGNING_KEY,
]

export function readStorage(r: Reader): Pick<Config, 'databasePath' | 'database' | 'receiptSigningKey'> {
  const database: Config['database'] = {
    url: r.env(DATABASE_URL) ?? '',
    poolMax: r.number(DATABASE_POOL_MAX),
    statementTimeoutMs: r.number(DATABASE_STATEMENT_TIMEOUT_MS),
    instanceId: r.env(INSTANCE_ID) ?? '',
    reconcileStaleMs: r.number(RECONCILE_STALE_MS),
    reconcileEveryMs: r.number(RECONCILE_EVERY_MS),
  }
  if (database.url && !/^postgres(ql)?:\/\/\S+$/.test(database.url))
    r.problems.push('DATABASE_URL must be a postgres:// URL')
  if (database.instanceId && !/^[\w.:-]{1,64}$/.test(database.instanceId))
    r.problems.push('INSTANCE_ID must be 1-64 letters, digits, . _ : -')
  return { databasePath: r.text(DATABASE_PATH), database, receiptSigningKey: r.env(RECEIPT_SIGNING_KEY) ?? '' }
}
