/**
 * `npm run backup [dest]`: a consistent copy of the live database (VACUUM INTO works while the server runs and
 * includes everything committed to the WAL). Restore: stop the server, copy the backup over DATABASE_PATH, delete
 * any leftover `-wal`/`-shm` files next to it, start the server (boot reconciles pending payments with the chain).
 */
import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { loadConfig } from '../runtime/config'

const { config } = loadConfig()
if (config.database.url) {
  console.error('DATABASE_URL is set: the data is in Postgres. Back it up with pg_dump (see docs/deploy.md#backups).')
  process.exit(1)
}
const dest =
  process.argv[2] ??
  `${config.databasePath.replace(/\.sqlite$/, '')}-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.sqlite`
if (existsSync(dest)) {
  console.error(`${dest} exists; choose another name`)
  process.exit(1)
}
const db = new Database(config.databasePath, { readonly: true })
db.exec(`VACUUM INTO '${dest.replace(/'/g, "''")}'`)
db.close()
console.log(`backed up ${config.databasePath} to ${dest}`)
