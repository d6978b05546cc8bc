import { existsSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'
import embedded from '../registry.yaml' with { type: 'text' }

export interface ServiceOverride {
  enabled?: boolean
  price_usd?: number
  prices?: Partial<Record<'quick' | 'standard' | 'pro', number>>
  model?: string
}

export interface Config {
  provider: { name: string; description: string; website: string; apiBase: string }
  port: number
  host: string
  databasePath: string
  bodyLimitBytes: number
  /** A request body must arrive within this many ms (slow-body cut-off). */
  bodyTimeoutMs: number
  trustedProxies: number
  network: string
  asset: `0x${string}`
  assetName: string
  assetVersion: string
  payTo: `0x${string}` | ''
  maxTimeoutSeconds: number
  rpcUrl: string
  settlerPrivateKey: string
  facilitatorUrl: string
  facilitatorAuthHeader: string
  openai: { baseUrl: string; apiKey: string }
  fetchAllowHosts: string[]
  demo: { service: string; tier: 'quick' | 'standard' | 'pro'; dailyLimit: number }
  services: Record<string, ServiceOverride>
  upstreams: Record<string, { url?: string; key?: string; timeoutMs?: number }>
  /** User-Agent for live-data upstreams; should name the operator and a contact (Wikipedia requires one). */
  upstreamUserAgent: string
  /** Invalid-payment attempts allowed per client per minute before 429 (0 = unlimited). */
  invalidPaymentLimit: number
}

type Env = Record<string, string | undefined>
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

function readYaml(env: Env): { text: string; from: string } {
  const path = env.REGISTRY_PATH ?? 'registry.yaml'
  if (existsSync(path)) return { text: readFileSync(path, 'utf8'), from: path }
  if (env.REGISTRY_PATH) throw new Error(`REGISTRY_PATH ${path} does not exist`)
  return { text: embedded as unknown as string, from: 'built-in registry.yaml' }
}

/** Reads registry.yaml (or the built-in copy) and applies environment overrides. Returns every problem found. */
export function loadConfig(env: Env = process.env, yamlText?: string): { config: Config; problems: string[] } {
  const problems: string[] = []
  let doc: any = {}
  try {
    doc = parse(yamlText ?? readYaml(env).text) ?? {}
  } catch (e) {
    problems.push(`registry.yaml: ${(e as Error).message}`)
  }
  const p = doc.provider ?? {}, s = doc.server ?? {}, pay = doc.payment ?? {}, m = doc.models ?? {}, d = doc.demo ?? {}
  const num = (name: string, v: unknown, fallback: number, min = 0) => {
    const n = v === undefined || v === '' ? fallback : Number(v)
    if (!Number.isFinite(n) || n < min) problems.push(`${name} must be a number >= ${min} (got ${JSON.stringify(v)})`)
    return n
  }
  const port = num('PORT', env.PORT ?? s.port, 3402)
  const config: Config = {
    provider: {
      name: String(p.name ?? 'Agent Utility API'),
      description: String(p.description ?? ''),
      website: String(env.PUBLIC_URL ?? p.website ?? `http://localhost:${port}`),
      apiBase: String(env.API_BASE_URL ?? env.PUBLIC_URL ?? p.api_base ?? `http://localhost:${port}`),
    },
    port,
    host: String(env.HOST ?? s.host ?? '0.0.0.0'),
    databasePath: String(env.DATABASE_PATH ?? s.database_path ?? './data/api.sqlite'),
    bodyLimitBytes: num('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES ?? s.body_limit_bytes, 1_048_576, 1024),
    bodyTimeoutMs: num('BODY_TIMEOUT_MS', env.BODY_TIMEOUT_MS ?? s.body_timeout_ms, 15_000, 100),
    trustedProxies: num('TRUSTED_PROXIES', env.TRUSTED_PROXIES ?? s.trusted_proxies, 0),
    network: String(env.NETWORK ?? pay.network ?? 'eip155:8453'),
    asset: String(env.ASSET ?? pay.asset ?? '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913') as `0x${string}`,
    assetName: String(pay.asset_name ?? 'USD Coin'),
    assetVersion: String(pay.asset_version ?? '2'),
    payTo: String(env.PAY_TO ?? pay.pay_to ?? '') as Config['payTo'],
    maxTimeoutSeconds: num('max_timeout_seconds', pay.max_timeout_seconds, 60, 10),
    rpcUrl: String(env.RPC_URL ?? pay.rpc_url ?? ''),
    settlerPrivateKey: String(env.SETTLER_PRIVATE_KEYS || env.SETTLER_PRIVATE_KEY || ''),
    facilitatorUrl: String(env.FACILITATOR_URL ?? pay.facilitator_url ?? ''),
    facilitatorAuthHeader: String(env.FACILITATOR_AUTH_HEADER ?? ''),
    openai: { baseUrl: String(env.OPENAI_BASE_URL ?? m.base_url ?? ''), apiKey: String(env.OPENAI_API_KEY ?? '') },
    fetchAllowHosts: String(env.FETCH_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    demo: { service: String(env.DEMO_SERVICE ?? d.service ?? 'explain-code'), tier: env.DEMO_TIER ?? d.tier ?? 'quick', dailyLimit: num('demo.daily_limit', env.DEMO_DAILY_LIMIT ?? d.daily_limit, 5) },
    services: doc.services ?? {},
    upstreams: doc.upstreams ?? {},
    upstreamUserAgent: String(env.UPSTREAM_USER_AGENT ?? doc.upstream_user_agent ?? `${String(p.name ?? 'Agent Utility API')}/1.0 (+${String(env.PUBLIC_URL ?? p.website ?? 'http://localhost')})`),
    invalidPaymentLimit: num('INVALID_PAYMENT_LIMIT', env.INVALID_PAYMENT_LIMIT, 30),
  }
  for (const [k, v] of Object.entries(env)) {
    const hit = k.match(/^UPSTREAM_([A-Z0-9_]+)_(URL|KEY)$/)
    if (!hit || !v) continue
    const name = hit[1].toLowerCase().replace(/_/g, '-')
    config.upstreams[name] = { ...config.upstreams[name], [hit[2] === 'URL' ? 'url' : 'key']: v }
  }
  if (!/^eip155:\d+$/.test(config.network)) problems.push(`NETWORK must be a CAIP-2 eip155 id like eip155:8453 (got ${config.network})`)
  if (!ADDRESS.test(config.asset)) problems.push(`payment.asset must be a 0x address (got ${config.asset})`)
  if (config.payTo && !ADDRESS.test(config.payTo)) problems.push(`PAY_TO must be a 0x address (got ${config.payTo})`)
  if (config.rpcUrl && !/^https?:\/\//.test(config.rpcUrl)) problems.push(`RPC_URL must be an http(s) URL`)
  if (config.rpcUrl && !config.facilitatorUrl && !config.settlerPrivateKey.split(',').every((k) => /^(0x)?[0-9a-fA-F]{64}$/.test(k.trim()))) problems.push('RPC_URL needs SETTLER_PRIVATE_KEY (a 32-byte hex key) or SETTLER_PRIVATE_KEYS (comma-separated) for self-facilitation')
  if (config.facilitatorUrl && !/^https?:\/\//.test(config.facilitatorUrl)) problems.push('FACILITATOR_URL must be an http(s) URL')
  if ((config.rpcUrl || config.facilitatorUrl) && !config.payTo) problems.push('PAY_TO is required when payments go to a real chain (RPC_URL or FACILITATOR_URL)')
  if (!['quick', 'standard', 'pro'].includes(config.demo.tier)) problems.push(`demo.tier must be quick, standard or pro`)
  return { config, problems }
}

/** True when neither a chain nor a facilitator is configured: `start` then runs the embedded dev chain. */
export const usesDevChain = (c: Config) => !c.rpcUrl && !c.facilitatorUrl
