/** The operator console, /stats and logs. */
import { type Reader, variable } from './declare'
import type { Config } from './types'

export const ADMIN_TOKEN = variable({
  name: 'ADMIN_TOKEN',
  secret: true,
  concern: 'console',
  valid: 'at least 24 characters, no spaces',
  description:
    'opens the operator console at `/admin` (unset = `/admin` does not exist; e.g. `openssl rand -base64 32`)',
})
export const ETH_USD = variable({
  name: 'ETH_USD',
  min: 0,
  concern: 'console',
  description:
    'ETH price in USD: `/stats` shows settlement gas in USD too, and boot warns about services priced below the recent average settlement cost',
})
export const LOG_LEVEL = variable({
  name: 'LOG_LEVEL',
  default: 'info',
  concern: 'console',
  valid: 'info | warn | error | silent',
  description: 'JSON-lines log level on stdout (an unknown level is `info`)',
})

export const consoleVariables = [ADMIN_TOKEN, ETH_USD, LOG_LEVEL]

export function readConsole(r: Reader): Pick<Config, 'adminToken' | 'ethUsd'> {
  const adminToken = r.env(ADMIN_TOKEN) ?? ''
  if (adminToken && (adminToken.length < 24 || /\s/.test(adminToken)))
    r.problems.push('ADMIN_TOKEN must be at least 24 characters without spaces (e.g. `openssl rand -base64 32`)')
  return { adminToken, ethUsd: r.env(ETH_USD) ? r.number(ETH_USD) : null }
}
