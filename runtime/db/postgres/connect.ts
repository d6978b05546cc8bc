import { SQL } from 'bun'
import { PG_MIGRATIONS } from './schema'
import { DatabaseUnavailable, recogniseClientErrors } from '../errors'

recogniseClientErrors(SQL.SQLError)

export interface PgOptions {
  url: string
  /** Connections in this instance's pool (DATABASE_POOL_MAX). */
  poolMax: number
  /** Per-connection statement_timeout (ms): a stuck query fails instead of holding a request. */
  statementTimeoutMs: number
}

export { DatabaseUnavailable } from '../errors'

/** The URL without its password, for messages. */
export const redactUrl = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')

/** Opens a pool and checks it answers (within ~5 s), then migrates. Throws DatabaseUnavailable. */
export async function openPostgres(o: PgOptions): Promise<SQL> {
  const sql = new SQL({
    url: o.url,
    max: o.poolMax,
    idleTimeout: 30,
    connectionTimeout: 5,
    connection: { statement_timeout: String(o.statementTimeoutMs), application_name: 'agent-api' },
  } as ConstructorParameters<typeof SQL>[0])
  try {
    await withTimeout(sql`SELECT 1`, 6000)
  } catch (e) {
    await sql.close({ timeout: 0 }).catch(() => {})
    throw new DatabaseUnavailable(
      `DATABASE_URL ${redactUrl(o.url)}: Postgres is unreachable (${String((e as Error)?.message ?? e).slice(0, 160)})`,
    )
  }
  await migrate(sql)
  return sql
}

export function withTimeout<T>(p: PromiseLike<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    Promise.resolve(p).finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
    }),
  ])
}

/** Applies missing migrations once: instances booting together serialize on a transaction advisory lock. */
async function migrate(sql: SQL): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('agent-api:migrate'))`
    await tx`CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)`
    const rows = await tx`SELECT version FROM schema_version`
    if (!rows.length) await tx`INSERT INTO schema_version (version) VALUES (0)`
    const current = rows.length ? Number(rows[0].version) : 0
    if (current > PG_MIGRATIONS.length)
      throw new Error(`database schema version ${current} is newer than this build (${PG_MIGRATIONS.length})`)
    for (let v = current; v < PG_MIGRATIONS.length; v++) {
      await tx.unsafe(PG_MIGRATIONS[v])
      await tx`UPDATE schema_version SET version = ${v + 1}`
    }
  })
}
