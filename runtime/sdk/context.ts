import type { TierName } from './manifest'

/** A response read by the safe fetcher: body already capped and buffered. */
export interface FetchedPage {
  /** Final URL after redirects. */
  url: string
  status: number
  headers: Headers
  /** Lower-cased media type without parameters, e.g. `text/html`. */
  contentType: string
  body: Uint8Array
  text(): string
}

export interface SafeFetchOptions {
  /** Media types accepted (prefix match, e.g. `text/`, `application/json`). Default: any. */
  accept?: string[]
  /** Byte cap for the body. Default from config (2 MiB). */
  maxBytes?: number
  /** Time cap in ms for the whole exchange. Default from config (10 s). */
  timeoutMs?: number
  method?: 'GET' | 'HEAD'
  headers?: Record<string, string>
}

/**
 * Fetches a user-supplied URL with SSRF protection (public addresses only, pinned DNS, re-checked redirects,
 * time and size caps). A refused URL throws a 4xx ServiceError; an unreachable one a 502/504.
 */
export type SafeFetch = (url: string, opts?: SafeFetchOptions) => Promise<FetchedPage>

/** Where live data comes from and on what terms; a live-data service returns it with the data. */
export interface Attribution {
  /** Who the data comes from. */
  source: string
  /** Where its terms are published. */
  url: string
  /** Licence of the data. */
  license: string
  /** The terms that matter to a paid reseller. */
  terms: string
}

/** A configured live-data upstream (registry.yaml `upstreams.<name>`; env `UPSTREAM_<NAME>_URL` / `_KEY`). */
export interface Upstream {
  readonly name: string
  readonly baseUrl: string
  readonly key?: string
  /** The upstream's attribution, declared once in services/upstreams.ts; return it with the data. */
  readonly attribution: Attribution
  /**
   * GET `baseUrl + path` with `query`, parse JSON, cache for `ttlMs` (identical concurrent calls share one request).
   * Non-2xx, timeouts and unparsable bodies throw a 502/504 ServiceError with `upstream` and `retryable`.
   */
  getJson<T = unknown>(
    path: string,
    query?: Record<string, string | number | boolean | undefined>,
    opts?: { ttlMs?: number; headers?: Record<string, string>; allowStatus?: number[] },
  ): Promise<{ status: number; data: T }>
}

/**
 * Where a handler sends its answer as it is produced, when the client asked for a stream (`Accept: text/event-stream`,
 * docs/streaming.md). The runtime frames it as Server-Sent Events; a handler only passes it on (`ctx.stream`).
 */
export interface StreamSink {
  /** The next chunk of the answer's text. */
  delta(text: string): void
  /** Drop the text sent so far: the answer is being produced again (a rejected structured answer asked for anew). */
  restart(reason: string): void
}

/** One chat completion request. `user` is always sent as delimited data in the user message. */
export interface ModelRequest {
  system: string
  user: string
  /** Defaults to the tier's max_tokens. */
  maxTokens?: number
  /** Ask for JSON matching this JSON Schema; the answer is parsed and validated, retried once, else 502. */
  jsonSchema?: Record<string, unknown>
  /** Images sent as data URLs (already fetched through the safe fetcher). */
  images?: Array<{ mediaType: string; data: Uint8Array }>
  /**
   * Extra check of a schema-valid JSON answer (e.g. "the SQL must parse"): return a reason to reject it.
   * A rejected answer is retried once like a schema failure, then 502.
   */
  validate?: (json: unknown) => string | undefined | Promise<string | undefined>
  /** Aborts the provider call (pass `ctx.signal`). */
  signal?: AbortSignal
  /**
   * Streams the answer (pass `ctx.stream`): the provider is asked with `stream: true` and each text chunk goes here
   * as it arrives. The result is the same as without it.
   */
  stream?: StreamSink
}

export interface ModelResult {
  text: string
  json?: unknown
  model: string
  tokensUsed: number
}

export interface ModelClient {
  readonly available: boolean
  readonly model: string
  complete(req: ModelRequest): Promise<ModelResult>
}

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

/** The x402 facilitator `/verify` contract, run against this server's chain (nothing is reserved or settled). */
export interface PaymentVerifier {
  verify(req: {
    x402Version: number
    paymentPayload: Record<string, unknown>
    paymentRequirements: Record<string, unknown>
  }): Promise<{ isValid: boolean; invalidReason?: string; payer?: string }>
}

/** What a handler receives besides its validated input. Built by the runtime; faked in tests with `testContext()`. */
export interface ServiceContext {
  requestId: string
  service: string
  tier: TierName
  /** The tier's token budget (0 for utilities). */
  maxTokens: number
  now(): Date
  /**
   * Aborted when the request's time budget runs out or the client goes away. A handler in the worker pool
   * (runtime/isolate) is stopped instead: its worker is ended, whatever it is doing.
   */
  signal: AbortSignal
  log: Logger
  fetch: SafeFetch
  upstream(name: string): Upstream
  model: ModelClient
  x402: PaymentVerifier
  /** Set when the client asked for a stream: pass it to the model call (`stream: ctx.stream`). */
  stream?: StreamSink
}
