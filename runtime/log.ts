import { LOG_LEVEL } from './config/console'
import { secretValues } from './config/variables'
import type { Logger } from './sdk'

const LEVELS = { silent: 0, error: 1, warn: 2, info: 3 } as const

/** Network URLs: kept as scheme://host[:port] only (RPC providers put API keys in the path or the query; userinfo dropped). */
const URL_RE = /\b((?:https?|wss?):\/\/)(?:[^\s"'\\/?#@]*@)?([^\s"'\\/?#]*)[^\s"'\\]*/gi
/** Hex longer than a 32-byte word: calldata, signatures, raw transactions. */
const LONG_HEX = /0x[0-9a-fA-F]{65,}|\b[0-9a-fA-F]{128,}\b/g
/** viem's decoded call arguments (`args: (from, to, ..., v, r, s)`) hold a signature's parts. */
const CALL_ARGS = /(\bargs:\s*)\([^)]*\)/g

/** Removes from a log line what must never be written: URL paths and queries, calldata, signatures, call arguments. */
export function redact(line: string): string {
  return line
    .replace(URL_RE, '$1$2')
    .replace(CALL_ARGS, '$1(redacted)')
    .replace(LONG_HEX, (h) => `[${Math.floor(h.replace(/^0x/, '').length / 2)} bytes redacted]`)
}

/**
 * JSON-lines logger. Every line is redacted (URLs to scheme://host, calldata and signatures dropped: viem errors
 * carry both), and the configured secrets (settler key, API keys) and bearer tokens are masked, so a secret that
 * reaches a log line by mistake is still never written; payment signatures are shortened by the gate before logging.
 */
export function createLogger(
  level = process.env[LOG_LEVEL.name] ?? String(LOG_LEVEL.default),
  write: (line: string) => void = (l) => process.stdout.write(l + '\n'),
): Logger {
  const max = LEVELS[level as keyof typeof LEVELS] ?? LEVELS.info
  // The variables declared secret (settler keys item by item, API keys, the facilitator header, the admin token).
  const secrets = secretValues(process.env).filter((s) => s.length >= 8)
  const mask = (s: string) => {
    let out = redact(s).replace(/Bearer\s+[^\s"]+/gi, 'Bearer [redacted]')
    for (const secret of secrets)
      out = out.split(secret).join('[redacted]').split(secret.replace(/^0x/, '')).join('[redacted]')
    return out
  }
  const emit = (lvl: keyof typeof LEVELS, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] > max) return
    write(mask(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...fields })))
  }
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  }
}
