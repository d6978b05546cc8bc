/**
 * Database errors every request path recognises, in a module of their own so that recognising them does not load
 * the Postgres store (runtime/db/postgres/*, loaded only when DATABASE_URL is set), nor Bun's Postgres client
 * (`bun:sql`, ~30 ms of a boot): its error class is registered by the Postgres store when it loads.
 */

/** A Postgres pool is unreachable or refused us: one message, without the password. */
export class DatabaseUnavailable extends Error {}

let clientError: (abstract new (...args: never[]) => Error) | undefined
/** Called by the Postgres store as it loads, with the Postgres client's error class (`SQL.SQLError`). */
export const recogniseClientErrors = (c: abstract new (...args: never[]) => Error): void => {
  clientError = c
}

/** True for an error of the Postgres client (connection refused or lost, statement timeout, server error). */
export const isDatabaseError = (e: unknown): boolean =>
  e instanceof DatabaseUnavailable || (clientError !== undefined && e instanceof clientError)
