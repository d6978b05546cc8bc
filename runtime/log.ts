import type { Logger } from './sdk'

const LEVELS = { silent: 0, error: 1, warn: 2, info: 3 } as const

/**
 * JSON-lines logger. The configured secrets (settler key, API keys) and bearer tokens are masked, so a secret that
 * reaches a log line by mistake is still never written; payment signatures are shortened by the gate before logging.
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info', write: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const max = LEVELS[level as keyof typeof LEVELS] ?? LEVELS.info
  const secrets = [process.env.SETTLER_PRIVATE_KEY, ...(process.env.SETTLER_PRIVATE_KEYS ?? '').split(',').map((k) => k.trim()), process.env.OPENAI_API_KEY, process.env.FACILITATOR_AUTH_HEADER].filter((s): s is string => !!s && s.length >= 8)
  const mask = (s: string) => {
    let out = s.replace(/Bearer\s+[^\s"]+/gi, 'Bearer [redacted]')
    for (const secret of secrets) out = out.split(secret).join('[redacted]').split(secret.replace(/^0x/, '')).join('[redacted]')
    return out
  }
  const emit = (lvl: keyof typeof LEVELS, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] > max) return
    write(mask(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...fields })))
  }
  return { info: (m, f) => emit('info', m, f), warn: (m, f) => emit('warn', m, f), error: (m, f) => emit('error', m, f) }
}
