/**
 * The embedded dev chain's own database. Every run of the dev chain is a new chain (new payee, payer and settler, no
 * transactions), so the ledger, stats and kept results of an earlier run describe payments that no longer exist: on
 * the dev chain the SQLite file is `dev-chain.sqlite` beside the configured one (never the configured file, which may
 * hold a real network's ledger), deleted at every start; an in-memory database (`:memory:`) stays in memory (new at
 * every start anyway; never a `dev-chain.sqlite` in the current directory). Postgres (DATABASE_URL) is never touched.
 * Only for the dev chain: it refuses a configuration that pays on a real network.
 */
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { usesDevChain, type Config } from '../config'

export const DEV_CHAIN_DATABASE = 'dev-chain.sqlite'

/** Points `config` at a fresh dev-chain SQLite file (deleting the last run's); returns its path, or null on Postgres. */
export function freshDevChainDatabase(config: Config): string | null {
  if (!usesDevChain(config)) throw new Error('the dev-chain database is for the embedded dev chain only')
  if (config.database.url) return null
  if (config.databasePath === ':memory:') return ':memory:'
  const path = join(dirname(config.databasePath), DEV_CHAIN_DATABASE)
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true })
  config.databasePath = path
  return path
}
