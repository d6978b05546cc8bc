import type { Database } from 'bun:sqlite'
import { createApp } from './app'
import { buildCatalog, type CatalogService } from './catalog'
import { loadConfig, type Config } from './config'
import { openDatabase } from './db/sqlite'
import { Ledger } from './db/ledger'
import { DailyQuota } from './db/quota'
import { Stats } from './db/stats'
import { createLogger } from './log'
import { PaymentGate } from './pay/gate'
import { reconcile } from './pay/reconcile'
import type { Facilitator } from './pay/types'
import type { RegistryEntry } from './registry-types'
import { entries as generated } from './registry.gen'
import { createContextFactory } from './context'
import { Throttle } from './http/throttle'
import { createVerifier } from './pay/verify-only'
import { modelProvider } from './model'
import type { Logger } from './sdk'

export interface BootOptions {
  env?: Record<string, string | undefined>
  /** Service folders to serve (default: the generated index). Tests add extra entries here. */
  entries?: RegistryEntry[]
  /** The payment backend; built by `start` from the config (dev chain, RPC or remote facilitator). */
  facilitator: Facilitator
  /** Receiving wallet when the config has none (the dev chain's payee). */
  payTo?: string
  log?: Logger
  reconcileEveryMs?: number
}

export interface Booted {
  app: ReturnType<typeof createApp>
  config: Config
  services: CatalogService[]
  db: Database
  ledger: Ledger
  stats: Stats
  log: Logger
  /** Stops timers and flushes stats; the database stays usable until `db.close()`. */
  close(): Promise<void>
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Refusing to start; fix these problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** Validates config and manifests (all problems at once), opens the database, reconciles the ledger, builds the app. */
export async function boot(o: BootOptions): Promise<Booted> {
  const env = o.env ?? process.env
  const log = o.log ?? createLogger(env.LOG_LEVEL)
  const { config, problems } = loadConfig(env)
  const payTo = config.payTo || o.payTo || ''
  if (!payTo) problems.push('PAY_TO is not set')
  const models = modelProvider({ baseUrl: config.openai.baseUrl || undefined, apiKey: config.openai.apiKey || undefined })
  const { services, problems: manifestProblems } = buildCatalog(o.entries ?? generated, config, models.available)
  problems.push(...manifestProblems)
  if (!services.some((s) => s.slug === config.demo.service)) problems.push(`demo.service '${config.demo.service}' is not a registered service`)
  if (problems.length) throw new ConfigError(problems)

  const db = openDatabase(config.databasePath)
  const stats = new Stats(db)
  const ledger = new Ledger(db)
  const quota = new DailyQuota(db, config.demo.dailyLimit)
  const gate = new PaymentGate(o.facilitator, ledger, stats, log)
  await reconcile(ledger, o.facilitator, stats, log, 0)
  const timer = setInterval(() => void reconcile(ledger, o.facilitator, stats, log).catch((e) => log.warn('reconcile failed', { error: String(e) })), o.reconcileEveryMs ?? 30_000)
  timer.unref?.()
  const refusals = new Throttle(config.invalidPaymentLimit)
  const app = createApp({ services, config, gate, stats, quota, db, payTo, log, refusals, bootedAt: Date.now(), settlement: o.facilitator.health ? () => o.facilitator.health!() : undefined, context: createContextFactory(config, log, createVerifier(o.facilitator, config.network), models) })
  return {
    app, config, services, db, ledger, stats, log,
    async close() {
      clearInterval(timer)
      stats.close()
      await o.facilitator.close?.()
    },
  }
}
