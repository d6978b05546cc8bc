import type { Database } from 'bun:sqlite'
import { createApp } from './app'
import { buildCatalog, type CatalogService } from './catalog'
import { loadConfig, usesDevChain, type Config } from './config'
import { openDatabase } from './db/sqlite'
import { Ledger } from './db/ledger'
import { DailyQuota } from './db/quota'
import { Stats } from './db/stats'
import { createLogger } from './log'
import { PaymentGate } from './pay/gate'
import { reconcile } from './pay/reconcile'
import { warnUnprofitablePrices } from './pay/cost'
import type { Facilitator } from './pay/types'
import type { RegistryEntry } from './registry-types'
import { entries as generated } from './registry.gen'
import { createContextFactory } from './context'
import { Throttle } from './http/throttle'
import { createVerifier } from './pay/verify-only'
import { modelProvider } from './model'
import type { Logger } from './sdk'
import type { DevPayer } from './site/dev-payer'
import { ResultStore } from './db/results'
import { PaidResults } from './pay/results'

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
  /** The embedded dev chain's funded payer; lets the try-it panel pay (ignored unless the dev chain is in use). */
  devPayer?: DevPayer
}

export interface Booted {
  app: ReturnType<typeof createApp>
  config: Config
  services: CatalogService[]
  db: Database
  ledger: Ledger
  gate: PaymentGate
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
  const refusals = new Throttle(config.invalidPaymentLimit)
  const gate = new PaymentGate(o.facilitator, ledger, log, refusals)
  await reconcile(ledger, o.facilitator, log, 0)
  warnUnprofitablePrices(services, ledger, config.ethUsd, log)
  const timer = setInterval(() => void reconcile(ledger, o.facilitator, log).catch((e) => log.warn('reconcile failed', { error: String(e) })), o.reconcileEveryMs ?? 30_000)
  timer.unref?.()
  const results = new PaidResults(new ResultStore(db, { maxBodyBytes: 1_048_576, maxTotalBytes: config.paidResultsMaxBytes }))
  const purge = setInterval(() => { try { results.purge() } catch (e) { log.warn('paid results purge failed', { error: String(e) }) } }, 60_000)
  purge.unref?.()
  results.purge()
  const app = createApp({ services, config, gate, stats, quota, db, ledger, payTo, log, refusals, results, bootedAt: Date.now(), facilitatorHealth: () => o.facilitator.health?.(), admin: { ledger, facilitator: o.facilitator }, devPayer: usesDevChain(config) ? o.devPayer : undefined, context: createContextFactory(config, log, createVerifier(o.facilitator, config.network), models) })
  return {
    app, config, services, db, ledger, gate, stats, log,
    async close() {
      clearInterval(timer)
      clearInterval(purge)
      results.close()
      stats.close()
      await o.facilitator.close?.()
    },
  }
}
