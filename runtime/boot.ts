import type { KeyPairSigner } from '@solana/kit'
import { createApp, VERSION } from './app'
import { buildCatalog, type Categories, type CatalogService } from './catalog/index'
import { loadConfig, usesDevChain, type Config } from './config'
import { openStorage, type OpenedStorage } from './db/open'
import type { Storage } from './db/store'
import { DatabaseUnavailable } from './db/errors'
import { createLogger } from './log'
import { PaymentGate } from './pay/schemes/exact/gate'
import { reconcile } from './pay/schemes/exact/reconcile'
import { warnUnprofitablePrices } from './pay/server/price-check'
import type { Facilitator } from './pay/types'
import type { RegistryEntry } from './catalog/registry-types'
import { createContextFactory } from './call/context'
import { createVerifier } from './pay/facilitator/verify-only'
import { modelProvider } from './model/provider'
import type { Logger, UpstreamDefault } from './sdk'
import type { DevPayer } from './site/dev-payer'
import type { DevSolanaPayer } from './site/dev-payer-solana'
import { PaidResults } from './pay/schemes/exact/kept-results'
import { exactScheme } from './pay/schemes/exact/scheme'
import { settlementEngine } from './pay/schemes/exact/engine'
import { MppScheme } from './pay/schemes/mpp/scheme'
import { mppKeys } from './pay/schemes/mpp/secret'
import { schemeRegistry } from './pay/server/schemes'
import { createReceiptIssuer, defaultKeyPath, loadReceiptKey, type ReceiptIssuer } from './pay/server/receipts'
import { HandlerPool, isolated } from './isolate'
import type { ChannelService } from './pay/schemes/batch-settlement/networks'
import type { ChannelSources } from './pay/facilitator/per-network/backends'
import { observedContext, startOps, tracedFetch } from './ops'

export interface BootOptions {
  env?: Record<string, string | undefined>
  /**
   * Service folders to serve: the generated index (services/index.gen.ts) made into entries by `registryEntries`
   * (runtime/catalog/registry.ts). Only the entry point imports services/; tests add extra entries here.
   */
  entries: RegistryEntry[]
  /** The live-data upstreams the services declare (services/upstreams.ts, re-exported by services/index.gen.ts). */
  upstreams: Record<string, UpstreamDefault>
  /** The categories a manifest may name, with their tags (services/categories.ts, re-exported by the index). */
  categories: Categories
  /**
   * The payment backend; built by `start` from the config (dev chain, RPC or remote facilitator). Its settlers (one
   * self-facilitated network, or each behind the NETWORKS router) and remote facilitators carry the payment channels.
   */
  facilitator: Facilitator & ChannelSources
  /** Receiving wallet when the config has none (the dev chain's payee). */
  payTo?: string
  log?: Logger
  reconcileEveryMs?: number
  /** The embedded dev chain's funded payer; lets the try-it panel pay (ignored unless the dev chain is in use). */
  devPayer?: DevPayer
  /** The embedded Solana dev chain's funded payer; lets the try-it panel pay on Solana (dev chains only). */
  devSolanaPayer?: DevSolanaPayer
  /** The configuration already read from `env` (`bun start` reads it once, to choose the payment backend). */
  loaded?: ReturnType<typeof loadConfig>
  /** The embedded Solana dev chain's fee payer (its RPC is in `config.solana`); else SOLANA_FEE_PAYER_KEY. */
  solanaFeePayer?: KeyPairSigner
}

export interface Booted {
  app: ReturnType<typeof createApp>
  config: Config
  services: CatalogService[]
  /** Where the handlers run (runtime/isolate). */
  pool: HandlerPool
  /**
   * The storage engine in use and its stores (the contract, runtime/db/store.ts). On SQLite (`kind` 'sqlite') it
   * also holds the handle and the synchronous stores: `sqliteOf(booted)` (runtime/db/open.ts) hands them out, or
   * throws on Postgres.
   */
  storage: OpenedStorage
  gate: PaymentGate
  log: Logger
  /** Payment channels (x402 batch-settlement): on the networks self-facilitated or with a remote listing them. */
  channels?: ChannelService
  /** The port of the separate metrics listener (METRICS_PORT; 0 picks a free one), when set. */
  metricsPort?: number
  /** Stops timers, flushes and closes the storage (a SQLite handle stays open until its `close()`). */
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
  const { config, problems } = o.loaded ?? loadConfig(env)
  const payTo = config.payTo || o.payTo || ''
  if (!payTo) problems.push('PAY_TO is not set')
  const models = modelProvider({
    baseUrl: config.openai.baseUrl || undefined,
    apiKey: config.openai.apiKey || undefined,
    fetch: tracedFetch,
  })
  const { entries } = o
  const { services: catalog, problems: manifestProblems } = buildCatalog(
    entries,
    config,
    models.available,
    o.categories,
  )
  problems.push(...manifestProblems)
  if (!catalog.some((s) => s.slug === config.demo.service))
    problems.push(`demo.service '${config.demo.service}' is not a registered service`)
  if (problems.length) throw new ConfigError(problems)
  // Handlers run in workers that are ended when a call outlives its deadline or memory (runtime/isolate).
  const pool = new HandlerPool(config.isolate, log)
  const services = isolated(catalog, entries, pool)

  let storage: OpenedStorage
  try {
    storage = await openStorage(config, log)
  } catch (e) {
    if (e instanceof DatabaseUnavailable) throw new ConfigError([e.message])
    throw e
  }
  // Everything from here on runs on either engine: the contract's types only.
  const { ledger, stats, quota }: Storage = storage
  const refusals = storage.refusals
  const gate = new PaymentGate(o.facilitator, ledger, log, refusals)
  // Reconciliation: own rows (this instance's, or every row on SQLite) at once at boot; on Postgres, rows of other
  // instances only once stale (their instance died), and only one instance reconciles at a time.
  const reconcileOpts = { instanceId: ledger.instanceId, othersStaleMs: config.database.reconcileStaleMs }
  await reconcile(ledger, o.facilitator, log, 0, reconcileOpts)
  await warnUnprofitablePrices(services, ledger, config.ethUsd, log)
  const everyMs = o.reconcileEveryMs ?? config.database.reconcileEveryMs
  const timer = setInterval(
    () =>
      void reconcile(ledger, o.facilitator, log, config.database.reconcileStaleMs, reconcileOpts).catch((e) =>
        log.warn('reconcile failed', { error: String(e) }),
      ),
    everyMs,
  )
  timer.unref?.()
  const results = new PaidResults(storage.results)
  const purge = setInterval(
    () =>
      void Promise.resolve()
        .then(() => results.purge())
        .catch((e) => log.warn('paid results purge failed', { error: String(e) })),
    60_000,
  )
  purge.unref?.()
  await results.purge()
  let receipts: ReceiptIssuer
  try {
    const keyPath = defaultKeyPath(config.databasePath)
    const warn = !usesDevChain(config) || Boolean(config.database.url)
    receipts = await createReceiptIssuer(
      await loadReceiptKey(config.receiptSigningKey, keyPath, log, warn),
      config.provider.apiBase,
    )
  } catch (e) {
    throw new ConfigError([(e as Error).message])
  }
  // Payment channels: offered on every network this server facilitates itself (RPC_URL[_<id>] + settler keys, or the
  // dev chain) and on every network whose remote facilitator lists batch-settlement in /supported (read now, and
  // again later if it did not answer); each network's claim engine runs from boot to shutdown (docs/channels.md).
  const { settler, remotes } = o.facilitator
  const settlers =
    o.facilitator.settlers ?? (settler && config.networks.length === 1 ? { [config.networks[0].network]: settler } : {})
  const channelsModule =
    Object.keys(settlers).length || remotes ? await import('./pay/schemes/batch-settlement/boot-channels') : undefined
  const channels = channelsModule
    ? await channelsModule.bootChannels({
        config,
        settlers,
        remotes,
        payTo,
        store: storage.channels,
        ledger,
        log,
      })
    : undefined
  channels?.start()
  // x402 `exact` on Solana (SOLANA_RPC_URL, or the embedded Solana dev chain): offered after the EVM entries when the
  // payee's USDC account exists and the fee payer holds SOL; otherwise an error in the log, and the rest is served.
  const solana = config.solana.rpcUrl
    ? await (await import('./pay/schemes/svm-exact/boot')).bootSolana({
        config,
        ledger,
        results: storage.results,
        log,
        feePayer: o.solanaFeePayer,
        reconcileEveryMs: everyMs,
        staleMs: config.database.reconcileStaleMs,
      })
    : undefined
  const solanaScheme = solana && (await import('./pay/schemes/svm-exact/plugin')).svmExactScheme(solana.offer)
  // The operator console's modules load only when it is enabled (literal specifier: bundled in the binary).
  const admin = config.adminToken ? await import('./admin/routes') : undefined
  // Metrics, traces and the canary's figures (runtime/ops), each only when configured.
  const ops = await startOps({
    ...{ config, env, version: VERSION, ledger, pool, log, channels, channelStore: storage.channels },
    ...{ network: config.networks[0].network, facilitatorHealth: () => o.facilitator.health?.() },
  })
  // MPP beside x402 (docs/payments.md): its challenges on every 402, settled by the same EIP-3009 engine as `exact`.
  const keys = mppKeys(config)
  if (keys && keys.source !== 'MPP_SECRET_KEY')
    log.warn(
      'MPP_SECRET_KEY is unset: MPP challenge ids are bound to a key ' +
        keys.source +
        '; set MPP_SECRET_KEY (the same on every instance) in production',
      { mpp_realm: keys.realm },
    )
  if (!keys) log.warn('MPP is off: MPP_SECRET_KEY is unset and there is no settler key to derive one from')
  const mpp = keys
    ? new MppScheme({ engine: settlementEngine(gate, results), keys, ttlS: config.maxTimeoutSeconds })
    : undefined
  // The Solana demo payer (embedded dev chains only): its routes' module loads @solana/kit, so only with the payer.
  const devSolana = usesDevChain(config) && solana ? o.devSolanaPayer : undefined
  const app = createApp({
    services,
    config,
    schemes: schemeRegistry([
      exactScheme({ gate, results }),
      ...(channels && channelsModule ? [channelsModule.channelScheme(channels)] : []),
      ...(mpp ? [mpp] : []),
      ...(solanaScheme ? [solanaScheme] : []),
    ]),
    stats,
    quota,
    storage,
    ledger,
    payTo,
    log,
    refusals,
    failingRuns: storage.failingRuns,
    receipts,
    channels,
    channelFigures: channels && ((since?: number) => channels.figures(since)),
    bootedAt: Date.now(),
    facilitatorHealth: () => o.facilitator.health?.(),
    admin: { ledger, facilitator: o.facilitator },
    adminRoutes: admin?.adminRoutes,
    ops: ops.routes,
    devPayer: usesDevChain(config) ? o.devPayer : undefined,
    devSolanaPayer: devSolana,
    devSolanaPayerRoutes: devSolana ? (await import('./site/dev-payer-solana')).devSolanaPayerRoutes : undefined,
    context: observedContext(
      createContextFactory(
        config,
        log,
        createVerifier(
          o.facilitator,
          config.networks.map((n) => n.network),
        ),
        models,
        o.upstreams,
      ),
    ),
  })
  return {
    app,
    config,
    services,
    pool,
    storage,
    gate,
    log,
    channels,
    metricsPort: ops.metricsPort,
    async close() {
      await ops.close()
      pool.close()
      clearInterval(timer)
      clearInterval(purge)
      solana?.stop()
      await channels
        ?.stop()
        .catch((e) => log.error('channel claims at shutdown failed', { error: String((e as Error)?.message ?? e) }))
      await storage.close()
      await o.facilitator.close?.()
    },
  }
}
