import type { SQL } from 'bun'
import { startPostgres, type LocalPostgres } from '../../scripts/ensure-postgres'
import { openPostgres } from '../../runtime/db/postgres/connect'

/** A real Postgres for one test file (started from npm by scripts/ensure-postgres.ts; stop it in afterAll). */
export const testPostgres = (): Promise<LocalPostgres> => startPostgres()
export type { LocalPostgres }

/** A test Postgres and the pools a file opens on it: `stop()` closes every pool, then the server. */
export interface TestPools {
  pg: LocalPostgres
  /** Another pool on `url` (statement timeout 5 s), as one more instance would hold it. */
  pool(url: string, poolMax: number): Promise<SQL>
  /** A pool on a new database called `name`. */
  fresh(name: string, poolMax: number): Promise<SQL>
  stop(): Promise<void>
}

export async function testPostgresPools(): Promise<TestPools> {
  const pg = await testPostgres()
  const pools: SQL[] = []
  const pool = async (url: string, poolMax: number) => {
    const sql = await openPostgres({ url, poolMax, statementTimeoutMs: 5000 })
    pools.push(sql)
    return sql
  }
  return {
    pg,
    pool,
    fresh: async (name, poolMax) => pool(await pg.createDatabase(name), poolMax),
    async stop() {
      for (const p of pools) await p.close().catch(() => {})
      await pg.stop()
    },
  }
}
