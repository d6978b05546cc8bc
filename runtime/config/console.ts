/** The operator console, /stats and logs; and the variables read outside the configuration object (process). */
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

// Read by a module when it loads (pay/fast-recover.ts) or by the dev chain (chain/anvil.ts), not into Config.
export const X402_PURE_JS = variable({
  name: 'X402_PURE_JS',
  concern: 'process',
  valid: '1 or unset',
  description:
    '`1` skips the native secp256k1 signature checker and recovers signers in JavaScript (slower; for comparison and platforms without the native module)',
})
export const ANVIL_PATH = variable({
  name: 'ANVIL_PATH',
  concern: 'process',
  description:
    'an anvil binary for the embedded dev chain (default: the one in the npm package `@foundry-rs/anvil-<platform>-<arch>`; a compiled binary has no node_modules)',
})

export const processVariables = [X402_PURE_JS, ANVIL_PATH]
