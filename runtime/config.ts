import { existsSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import embedded from '../registry.yaml' with { type: 'text' }
import { assetDefaults } from './pay/networks'
import { listOf, networkSettings, type NetworkSetting } from './pay/network-settings'
import { isTier, TIERS, type Tier } from './sdk/manifest'
import { SHIPPED_REGISTRY_SHA256 } from './shipped-registry.gen'

export interface ServiceOverride {
  enabled?: boolean
  price_usd?: number
  prices?: Partial<Record<Tier, number>>
  model?: string
}

export interface Config {
  /** iconUrl: the bazaar icon (ICON_URL / provider.icon_url; empty = this server's /icon.svg). */
  provider: { name: string; description: string; website: string; apiBase: string; iconUrl: string }
  port: number
  host: string
  databasePath: string
  bodyLimitBytes: number
  /** A request body must arrive within this many ms (slow-body cut-off). */
  bodyTimeoutMs: number
  trustedProxies: number
  /** The first (or only) network accepted; `asset*` below are its token. */
  network: string
  /** Every network accepted (NETWORKS, else NETWORK alone), each with its token and backend; [0] is `network`. */
  networks: NetworkSetting[]
  asset: `0x${string}`
  assetName: string
  assetVersion: string
  payTo: `0x${string}` | ''
  maxTimeoutSeconds: number
  rpcUrl: string
  settlerPrivateKey: string
  facilitatorUrl: string
  facilitatorAuthHeader: string
  /** FACILITATOR_URL split on commas: tried in order, each behind a circuit breaker. */
  facilitatorUrls: string[]
  /** A facilitator that fails this many times in a row is skipped for `facilitatorCooldownSeconds`. */
  facilitatorFailures: number
  facilitatorCooldownSeconds: number
  /** Coinbase CDP API key: every facilitator request then carries a fresh JWT signed with it. */
  cdp: { apiKeyId: string; apiKeySecret: string }
  openai: { baseUrl: string; apiKey: string }
  fetchAllowHosts: string[]
  demo: { service: string; tier: Tier; dailyLimit: number }
  services: Record<string, ServiceOverride>
  upstreams: Record<string, { url?: string; key?: string; timeoutMs?: number }>
  /** User-Agent for live-data upstreams; should name the operator and a contact (Wikipedia requires one). */
  upstreamUserAgent: string
  /** Costly payment refusals (verification work done) allowed per client and per payer per minute before 429 (0 = unlimited). */
  invalidPaymentLimit: number
  /** Opens the operator console at /admin when set (at least 24 characters); empty = /admin does not exist. */
  adminToken: string
  /** Total bytes of paid results kept for collection again (oldest bodies dropped past it). */
  paidResultsMaxBytes: number
  /**
   * Where handlers run (runtime/isolate): `workers` kept ready (ISOLATE_WORKERS, default the cores), at most
   * `maxWorkers` calls at once (ISOLATE_MAX_WORKERS; more wait within their deadline), how much one call may grow
   * the process's RSS before it is stopped (ISOLATE_MEMORY_MB), and the largest answer (JSON) one call may return
   * (ISOLATE_ANSWER_MB; a larger one is refused inside the worker, before it reaches the event loop).
   */
  isolate: { workers: number; maxWorkers: number; memoryMb: number; answerMb: number }
  /** ETH price in USD (ETH_USD), for gas costs in /stats and the boot's price check; null when unset. */
  ethUsd: number | null
  /** Signs the receipts of paid calls (RECEIPT_SIGNING_KEY, a private P-256 JWK); empty = a generated key kept beside the database. */
  receiptSigningKey: string
  /** A streamed answer sends a `: keep-alive` comment this often (STREAM_HEARTBEAT_MS, default 15 000). */
  streamHeartbeatMs: number
  /** Shared Postgres for N instances (DATABASE_URL, postgres://…); empty = the embedded SQLite at databasePath. */
  database: {
    url: string
    poolMax: number
    statementTimeoutMs: number
    instanceId: string
    reconcileStaleMs: number
    reconcileEveryMs: number
  }
}

type Env = Record<string, string | undefined>
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const DEFAULT_LOCAL_URL = 'http://localhost:3402'

function readYaml(env: Env): { text: string; from: string } {
  const path = env.REGISTRY_PATH ?? 'registry.yaml'
  if (existsSync(path)) return { text: readFileSync(path, 'utf8'), from: path }
  if (env.REGISTRY_PATH) throw new Error(`REGISTRY_PATH ${path} does not exist`)
  return { text: embedded as unknown as string, from: 'built-in registry.yaml' }
}

/**
 * The document of a registry.yaml text. Any text an operator wrote goes through the `yaml` package (YAML 1.2 core
 * schema; duplicate keys are errors), loaded only then. Only the exact registry.yaml this repository ships (its
 * sha256 is SHIPPED_REGISTRY_SHA256, so an edited checkout or a binary built from one does not count) goes through
 * Bun's built-in parser, which gives the same document for it (test/boot/config-parse.test.ts) without loading the
 * package and its first, cold parse (~40 ms of boot).
 */
function parseYaml(text: string): unknown {
  if (sha256(text) === SHIPPED_REGISTRY_SHA256) return Bun.YAML.parse(text)
  return (require('yaml') as typeof import('yaml')).parse(text)
}

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')

/** Reads registry.yaml (or the built-in copy) and applies environment overrides. Returns every problem found. */
export function loadConfig(env: Env = process.env, yamlText?: string): { config: Config; problems: string[] } {
  const problems: string[] = []
  let doc: any = {}
  try {
    doc = parseYaml(yamlText ?? readYaml(env).text) ?? {}
  } catch (e) {
    problems.push(`registry.yaml: ${(e as Error).message}`)
  }
  const p = doc.provider ?? {},
    s = doc.server ?? {},
    pay = doc.payment ?? {},
    m = doc.models ?? {},
    d = doc.demo ?? {}
  const num = (name: string, v: unknown, fallback: number, min = 0) => {
    const n = v === undefined || v === '' ? fallback : Number(v)
    if (!Number.isFinite(n) || n < min) problems.push(`${name} must be a number >= ${min} (got ${JSON.stringify(v)})`)
    return n
  }
  const port = num('PORT', env.PORT ?? s.port, 3402)
  // NETWORKS (comma-separated) accepts several networks at once; NETWORK alone means one.
  const listed = listOf(env.NETWORKS)
  const network = String(listed[0] ?? env.NETWORK ?? pay.network ?? 'eip155:8453')
  const multi = listed.length > 1 ? networkSettings(env, pay, listed, problems) : undefined
  const asset = multi
    ? { asset: multi[0].asset, assetName: multi[0].assetName, assetVersion: multi[0].assetVersion }
    : resolveAsset(env, pay, network, problems)
  const facilitatorUrl = String(env.FACILITATOR_URL ?? pay.facilitator_url ?? '')
  const cdp = { apiKeyId: String(env.CDP_API_KEY_ID ?? ''), apiKeySecret: String(env.CDP_API_KEY_SECRET ?? '') }
  // registry.yaml ships `http://localhost:3402` as its URLs: that default follows the listen port instead.
  const configured = (url: unknown) =>
    url === undefined || url === null || url === '' || url === DEFAULT_LOCAL_URL ? undefined : url
  const config: Config = {
    provider: {
      name: String(p.name ?? 'Agent Utility API'),
      description: String(p.description ?? ''),
      website: String(env.PUBLIC_URL ?? configured(p.website) ?? `http://localhost:${port}`),
      apiBase: String(env.API_BASE_URL ?? env.PUBLIC_URL ?? configured(p.api_base) ?? `http://localhost:${port}`),
      iconUrl: String(env.ICON_URL ?? p.icon_url ?? ''),
    },
    port,
    host: String(env.HOST ?? s.host ?? '0.0.0.0'),
    databasePath: String(env.DATABASE_PATH ?? s.database_path ?? './data/api.sqlite'),
    bodyLimitBytes: num('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES ?? s.body_limit_bytes, 1_048_576, 1024),
    bodyTimeoutMs: num('BODY_TIMEOUT_MS', env.BODY_TIMEOUT_MS ?? s.body_timeout_ms, 15_000, 100),
    trustedProxies: num('TRUSTED_PROXIES', env.TRUSTED_PROXIES ?? s.trusted_proxies, 0),
    network,
    networks: multi ?? [],
    ...asset,
    payTo: String(env.PAY_TO ?? pay.pay_to ?? '') as Config['payTo'],
    maxTimeoutSeconds: num('max_timeout_seconds', pay.max_timeout_seconds, 60, 10),
    rpcUrl: String(env.RPC_URL ?? pay.rpc_url ?? ''),
    settlerPrivateKey: String(env.SETTLER_PRIVATE_KEYS || env.SETTLER_PRIVATE_KEY || ''),
    // With a CDP key and no FACILITATOR_URL, payments go through Coinbase's CDP facilitator.
    facilitatorUrl: facilitatorUrl || (cdp.apiKeyId ? CDP_FACILITATOR_URL : ''),
    facilitatorAuthHeader: String(env.FACILITATOR_AUTH_HEADER ?? ''),
    facilitatorUrls: (facilitatorUrl || (cdp.apiKeyId ? CDP_FACILITATOR_URL : ''))
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    facilitatorFailures: num(
      'FACILITATOR_BREAKER_FAILURES',
      env.FACILITATOR_BREAKER_FAILURES ?? pay.facilitator_breaker_failures,
      3,
      1,
    ),
    facilitatorCooldownSeconds: num(
      'FACILITATOR_BREAKER_COOLDOWN_SECONDS',
      env.FACILITATOR_BREAKER_COOLDOWN_SECONDS ?? pay.facilitator_breaker_cooldown_seconds,
      30,
      1,
    ),
    cdp,
    openai: { baseUrl: String(env.OPENAI_BASE_URL ?? m.base_url ?? ''), apiKey: String(env.OPENAI_API_KEY ?? '') },
    fetchAllowHosts: String(env.FETCH_ALLOW_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    demo: {
      service: String(env.DEMO_SERVICE ?? d.service ?? 'explain-code'),
      tier: env.DEMO_TIER ?? d.tier ?? 'quick',
      dailyLimit: num('demo.daily_limit', env.DEMO_DAILY_LIMIT ?? d.daily_limit, 5),
    },
    services: doc.services ?? {},
    upstreams: doc.upstreams ?? {},
    upstreamUserAgent: String(
      env.UPSTREAM_USER_AGENT ??
        doc.upstream_user_agent ??
        `${String(p.name ?? 'Agent Utility API')}/1.0 (+${String(env.PUBLIC_URL ?? p.website ?? 'http://localhost')})`,
    ),
    invalidPaymentLimit: num('INVALID_PAYMENT_LIMIT', env.INVALID_PAYMENT_LIMIT, 30),
    adminToken: String(env.ADMIN_TOKEN ?? ''),
    paidResultsMaxBytes: num('PAID_RESULTS_MAX_MB', env.PAID_RESULTS_MAX_MB, 64, 1) * 1_048_576,
    isolate: {
      workers: num('ISOLATE_WORKERS', env.ISOLATE_WORKERS, Math.max(2, availableParallelism()), 1),
      // calls waiting on the model or the network hold a worker each: room for them beside the computing ones
      maxWorkers: num('ISOLATE_MAX_WORKERS', env.ISOLATE_MAX_WORKERS, Math.max(16, 4 * availableParallelism()), 1),
      memoryMb: num('ISOLATE_MEMORY_MB', env.ISOLATE_MEMORY_MB, 256, 16),
      answerMb: num('ISOLATE_ANSWER_MB', env.ISOLATE_ANSWER_MB, 16, 1),
    },
    ethUsd: env.ETH_USD ? num('ETH_USD', env.ETH_USD, 0) : null,
    receiptSigningKey: String(env.RECEIPT_SIGNING_KEY ?? ''),
    streamHeartbeatMs: num('STREAM_HEARTBEAT_MS', env.STREAM_HEARTBEAT_MS, 15_000, 10),
    database: {
      url: String(env.DATABASE_URL ?? ''),
      poolMax: num('DATABASE_POOL_MAX', env.DATABASE_POOL_MAX, 10, 2), // the reconciler holds one connection for its lock
      statementTimeoutMs: num('DATABASE_STATEMENT_TIMEOUT_MS', env.DATABASE_STATEMENT_TIMEOUT_MS, 5000, 100),
      instanceId: String(env.INSTANCE_ID ?? ''),
      reconcileStaleMs: num('RECONCILE_STALE_MS', env.RECONCILE_STALE_MS, 600_000, 1000),
      reconcileEveryMs: num('RECONCILE_EVERY_MS', env.RECONCILE_EVERY_MS, 30_000, 100),
    },
  }
  if (!multi)
    config.networks = [
      {
        network,
        ...asset,
        rpcUrl: config.rpcUrl,
        settlerPrivateKey: config.settlerPrivateKey,
        facilitatorUrls: config.facilitatorUrls,
      },
    ]
  if (config.database.url && !/^postgres(ql)?:\/\/\S+$/.test(config.database.url))
    problems.push('DATABASE_URL must be a postgres:// URL')
  if (config.database.instanceId && !/^[\w.:-]{1,64}$/.test(config.database.instanceId))
    problems.push('INSTANCE_ID must be 1-64 letters, digits, . _ : -')
  for (const [k, v] of Object.entries(env)) {
    const hit = k.match(/^UPSTREAM_([A-Z0-9_]+)_(URL|KEY)$/)
    if (!hit || !v) continue
    const name = hit[1].toLowerCase().replace(/_/g, '-')
    config.upstreams[name] = { ...config.upstreams[name], [hit[2] === 'URL' ? 'url' : 'key']: v }
  }
  if (!/^eip155:\d+$/.test(config.network))
    problems.push(`NETWORK must be a CAIP-2 eip155 id like eip155:8453 (got ${config.network})`)
  if (config.asset && !ADDRESS.test(config.asset))
    problems.push(`payment.asset must be a 0x address (got ${config.asset})`)
  if (config.payTo && !ADDRESS.test(config.payTo)) problems.push(`PAY_TO must be a 0x address (got ${config.payTo})`)
  if (config.rpcUrl && !/^https?:\/\//.test(config.rpcUrl)) problems.push(`RPC_URL must be an http(s) URL`)
  if (
    config.rpcUrl &&
    !config.facilitatorUrl &&
    !config.settlerPrivateKey.split(',').every((k) => /^(0x)?[0-9a-fA-F]{64}$/.test(k.trim()))
  )
    problems.push(
      'RPC_URL needs SETTLER_PRIVATE_KEY (a 32-byte hex key) or SETTLER_PRIVATE_KEYS (comma-separated) for self-facilitation',
    )
  const httpUrl = (u: string) => {
    try {
      return /^https?:$/.test(new URL(u).protocol) && !/\s/.test(u)
    } catch {
      return false
    }
  }
  for (const u of config.facilitatorUrls)
    if (!httpUrl(u))
      problems.push(
        `FACILITATOR_URL must be a comma-separated list of http(s) URLs (got ${u.split('?')[0].replace(/\/\/[^@/]*@/, '//***@')})`,
      )
  if (Boolean(cdp.apiKeyId) !== Boolean(cdp.apiKeySecret))
    problems.push('CDP_API_KEY_ID and CDP_API_KEY_SECRET go together: set both or neither')
  if ((config.rpcUrl || config.facilitatorUrl || multi) && !config.payTo)
    problems.push('PAY_TO is required when payments go to a real chain (RPC_URL, FACILITATOR_URL or NETWORKS)')
  if (config.adminToken && (config.adminToken.length < 24 || /\s/.test(config.adminToken)))
    problems.push('ADMIN_TOKEN must be at least 24 characters without spaces (e.g. `openssl rand -base64 32`)')
  if (config.isolate.maxWorkers < config.isolate.workers)
    problems.push('ISOLATE_MAX_WORKERS must be at least ISOLATE_WORKERS')
  if (!isTier(config.demo.tier)) problems.push(`demo.tier must be one of ${TIERS.join(', ')}`)
  return { config, problems }
}

/** Coinbase's hosted facilitator (needs CDP_API_KEY_ID / CDP_API_KEY_SECRET). */
export const CDP_FACILITATOR_URL = 'https://api.cdp.coinbase.com/platform/v2/x402'

/**
 * The payment asset: ASSET / ASSET_NAME / ASSET_VERSION when set; registry.yaml's payment.asset* only while its
 * payment.network is the network in use; otherwise the network's USDC from @x402/evm's defaults. A network
 * without known defaults needs all three explicitly.
 */
export function resolveAsset(
  env: Env,
  pay: any,
  network: string,
  problems: string[],
  suffix = '',
): Pick<Config, 'asset' | 'assetName' | 'assetVersion'> {
  const yaml = (pay.network ?? 'eip155:8453') === network ? pay : {}
  const explicit = {
    asset: env.ASSET ?? yaml.asset,
    name: env.ASSET_NAME ?? yaml.asset_name,
    version: env.ASSET_VERSION ?? yaml.asset_version,
  }
  const known = /^eip155:\d+$/.test(network) ? assetDefaults(network) : undefined
  const sameToken = known && (!explicit.asset || String(explicit.asset).toLowerCase() === known.asset.toLowerCase())
  const out = {
    asset: String(explicit.asset ?? known?.asset ?? '') as `0x${string}`,
    assetName: String(explicit.name ?? (sameToken ? known.name : '')),
    assetVersion: String(explicit.version ?? (sameToken ? known.version : '')),
  }
  if (!out.asset || !out.assetName || !out.assetVersion)
    problems.push(
      `NETWORK ${network} has no known USDC defaults for this asset: set ASSET${suffix}, ASSET_NAME${suffix} and ASSET_VERSION${suffix} (the token's EIP-712 domain)`,
    )
  return out
}

/** True when neither a chain nor a facilitator is configured: `start` then runs the embedded dev chain. */
export const usesDevChain = (c: Config) => c.networks.length < 2 && !c.rpcUrl && !c.facilitatorUrl
