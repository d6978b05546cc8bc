import { SQL } from 'bun'

/**
 * Database errors every request path recognises, in a module of their own so that recognising them does not load
 * the Postgres store (runtime/db/postgres/*, loaded only when DATABASE_URL is set).
 */

/** A Postgres pool is unreachable or refused us: one message, without the password. */
export class DatabaseUnavailable extends Error {}

/** True for an error of the Postgres client (connection refused or lost, statement timeout, server error). */
export const isDatabaseError = (e: unknown): boolean => e instanceof SQL.SQLError || e instanceof DatabaseUnavailable
