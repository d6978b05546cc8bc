import { startPostgres, type LocalPostgres } from '../../scripts/ensure-postgres'

/** A real Postgres for one test file (started from npm by scripts/ensure-postgres.ts; stop it in afterAll). */
export const testPostgres = (): Promise<LocalPostgres> => startPostgres()
export type { LocalPostgres }
