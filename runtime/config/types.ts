import type { Tier } from '../sdk/manifest'

export interface ServiceOverride {
  enabled?: boolean
  price_usd?: number
  prices?: Partial<Record<Tier, number>>
  model?: string
}

/** One accepted network: its token (EIP-712 domain) and its own payment backend. */
export interface NetworkSetting {
  network: string
  asset: `0x${string}`
  assetName: string
  assetVersion: string
  /** RPC_URL_<CHAINID> (self-facilitation with `settlerPrivateKey`), or the global RPC_URL for a single network. */
  rpcUrl: string
  /** Comma-separated settler keys (read them with `settlerKeys` of config/parse.ts). */
  settlerPrivateKey: string
  /** Remote facilitators tried in order (FACILITATOR_URL_<CHAINID>, or FACILITATOR_URL for a single network). */
  facilitatorUrls: string[]
  /** PAY_TO_<CHAINID>: this network's receiving wallet; absent = PAY_TO. */
  payTo?: `0x${string}`
}

export interface Config {
  /** iconUrl: the bazaar icon (ICON_URL / provider.icon_url; empty = this server's /icon.svg). */
  provider: {
    name: string
    description: string
    website: string
    apiBase: string
    iconUrl: string
    /** OWNERSHIP_PROOFS: the origin signed with each payTo key (EIP-191), listed in /.well-known/x402. */
    ownershipProofs?: string[]
  }
  port: number
  host: string
  databasePath: string
  bodyLimitBytes: number
  /** A request body must arrive within this many ms (slow-body cut-off). */
  bodyTimeoutMs: number
  trustedProxies: number
  /**
   * The origins whose web pages may act here (MCP, the demo, the dev payer, the console): PUBLIC_URL's and
   * API_BASE_URL's, then MCP_ALLOWED_ORIGINS. This server on loopback at its own port is allowed besides.
   */
  allowedOrigins: string[]
  /**
   * Every network accepted, each with its token and backend: NETWORKS with two or more networks, else a list of
   * one (NETWORK and the global variables). `networks[0]` is the main one (discovery documents, the v1 body, the
   * dev chain).
   */
  networks: NetworkSetting[]
  payTo: `0x${string}` | ''
  maxTimeoutSeconds: number
  /** FACILITATOR_URL as set (or Coinbase's when only CDP_API_KEY_* are): remote facilitation when non-empty. */
  facilitatorUrl: string
  facilitatorAuthHeader: string
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
  /** ETH price in USD (ETH_USD), for gas costs in /stats and the boot's price check; null when unset. */
  ethUsd: number | null
  /** Signs the receipts of paid calls (RECEIPT_SIGNING_KEY, a private P-256 JWK); empty = a generated key kept beside the database. */
  receiptSigningKey: string
  /** A streamed answer sends a `: keep-alive` comment this often (STREAM_HEARTBEAT_MS, default 15 000). */
  streamHeartbeatMs: number
  /** Where handlers run (runtime/isolate): the pool's options (runtime/isolate/pool.ts `PoolOptions`). */
  isolate: PoolOptions
  /** Operations (docs/operations.md): the separate metrics port (null: /metrics behind ADMIN_TOKEN), the canary's payers. */
  ops: { metricsPort: number | null; metricsHost: string; canaryPayers: string[] }
  /** Payment channels (docs/channels.md): longest wait of a charge for its claim, smallest deposit accepted. */
  channels: {
    claimIntervalS: number
    /** A payer's unclaimed charges (USD, over its channels on a network) that trigger a claim. */
    claimThresholdUsd: number
    minDepositUsd: number
    /** CHANNEL_RECEIVER_AUTHORIZER_KEY (hex, 0x-prefixed), or empty: derived from the first settler key. */
    receiverAuthorizerKey: string
  }
  /**
   * MPP beside x402 (runtime/pay/schemes/mpp): MPP_SECRET_KEY as set (empty: derived at boot, or MPP off) and
   * MPP_REALM (empty: API_BASE_URL's host).
   */
  mpp: { secretKey: string; realm: string }
  /**
   * x402 `exact` on Solana (runtime/config/solana.ts): off while `rpcUrl` is empty (the embedded dev chain fills it
   * in). Base58 addresses and keys, case-sensitive.
   */
  solana: {
    network: string
    asset: string
    rpcUrl: string
    /** SOLANA_FACILITATOR_URL: verify and settle at this remote facilitator (empty: self-facilitated). */
    facilitatorUrl: string
    feePayerKey: string
    payTo: string
    /**
     * Set by boot once Solana is offered (its checks passed: runtime/pay/schemes/svm-exact/boot.ts): the fee payer
     * the 402 names (`extra.feePayer`). The published documents (discovery/) list Solana only then.
     */
    offered?: { feePayer: string }
  }
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

export interface PoolOptions {
  /** Workers kept ready. */
  workers: number
  /** Calls running at once (one per worker); more wait for a worker within their deadline. */
  maxWorkers: number
  /** The most a call may grow the process's RSS (MB) while it runs, other workers' start-up excluded. */
  memoryMb: number
  /** The largest answer (MB of JSON) a call may return; a larger one is refused in the worker. */
  answerMb: number
  /** The most calls waiting for a worker, all callers together; past it a call is refused at once (503). */
  queue: number
  /** A linear service's call whose input is at most this many KiB (of JSON) runs on the main thread; 0: never. */
  inlineKb: number
  /** CPU ms a main-thread run may take before its service goes back to the pool for the rest of the process. */
  inlineMs: number
  /** The most workers one caller (a payer, or a client address) holds at once. */
  callerWorkers: number
  /** The most calls one caller may have waiting while it holds its share of workers; past it, refused (503). */
  callerQueue: number
  /** The process's RSS bound (MB): above it new calls are refused, and the worst computing call is stopped. */
  processMb: number
  /** A worker whose own heap, or whose last call's growth of the process, is above this (MB) is replaced. */
  workerMb: number
  /** Calls a worker runs before it is replaced. */
  workerJobs: number
}
