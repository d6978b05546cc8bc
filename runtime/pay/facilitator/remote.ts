import { boundedText } from './bounded-body'
import { toV1 } from '../wire'
import { v1NetworkOf } from '../networks'
import type { RequestAuth } from './cdp-auth'
import type {
  ChainStatus,
  DecodedPayment,
  Facilitator,
  PaymentRequirements,
  SettleResult,
  VerifyResult,
} from '../types'
import { REASON } from '../reasons'

export interface RemoteFacilitatorOptions {
  url: string
  /** Sent as the Authorization header on every call (for hosted facilitators with a fixed token). */
  authHeader?: string
  /** Builds the Authorization header per request (CDP JWT); wins over authHeader. */
  auth?: RequestAuth
  verifyTimeoutMs?: number
  settleTimeoutMs?: number
  fetch?: typeof fetch
  /** A settled transaction's id as this facilitator's networks write it (default: an EVM hash; Solana: base58). */
  transactionPattern?: RegExp
}

const EVM_TX = /^0x[0-9a-fA-F]{64}$/

/** What a facilitator says it supports (GET /supported). */
export interface SupportedKinds {
  kinds: Array<{ x402Version: number; scheme: string; network: string; extra?: Record<string, unknown> }>
}

/**
 * The facilitator certainly did not take the request: the connection was never made (refused, no such host),
 * or it answered 401/403/429/503 (refused before doing anything). Only then may a /settle go to another
 * facilitator; any other failure (timeout, reset, 500, 502, 504, bad answer) may have broadcast the transfer.
 */
export class NotAccepted extends Error {}

const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ConnectionRefused',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'FailedToOpenSocket',
])
const REFUSED_STATUS = new Set([401, 403, 429, 503])

/** The URL without credentials or query (for logs and /health). */
export const safeUrl = (url: string) => {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`
  } catch {
    return 'invalid-url'
  }
}

/**
 * The x402 facilitator HTTP API (/verify, /settle, /supported). Verify/settle bodies are always OUR requirements
 * (v1-shaped for v1 payloads). Transport failures throw (NotAccepted when the request surely never landed), so
 * the gate answers 503 and serves nothing.
 */
export function createRemoteFacilitator(
  o: RemoteFacilitatorOptions,
): Facilitator & { url: string; supported(): Promise<SupportedKinds> } {
  const f = o.fetch ?? fetch
  const base = new URL(o.url)
  const basePath = base.pathname.replace(/\/+$/, '')
  const name = safeUrl(o.url)
  // <url>/verify etc., keeping any query string or credentials the operator put in the URL.
  const urlOf = (path: string) => Object.assign(new URL(base), { pathname: basePath + path }).toString()
  const body = (p: DecodedPayment, req: PaymentRequirements) => ({
    x402Version: p.x402Version,
    paymentPayload: p.raw,
    paymentRequirements:
      p.x402Version === 2
        ? req
        : {
            ...toV1(req, String(req.extra.resource ?? o.url), String(req.extra.description ?? '')),
            network: v1NetworkOf(req.network),
          },
  })
  /**
   * `answersOn(status)`: whether a JSON answer with this non-2xx status is still an answer (verify: any; settle: a
   * 4xx only, a refusal of the request; a 5xx is unknown, the transfer may have been sent).
   */
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    payload: unknown,
    timeoutMs: number,
    answersOn: (status: number) => boolean = () => true,
  ): Promise<T> {
    const url = urlOf(path)
    let authorization = o.authHeader
    // A request we could not sign was never sent: nothing to fear from sending it elsewhere.
    if (o.auth)
      authorization = await o.auth(method, url).catch((e) => {
        throw new NotAccepted(`could not authenticate to facilitator ${name}: ${(e as Error).message.slice(0, 120)}`)
      })
    let res: Response
    try {
      res = await f(url, {
        method,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(authorization ? { authorization } : {}),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (e) {
      const code = String((e as { code?: unknown }).code ?? '')
      const msg = `facilitator ${name}${path} unreachable (${code || (e as Error).name})`
      throw NOT_CONNECTED.has(code) ? new NotAccepted(msg) : new Error(msg)
    }
    // A body past 1 MiB is an error (unknown for a settle: the payment stays pending), never read whole.
    const text = await boundedText(res, `facilitator ${name}${path}`)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const answered = json && typeof json === 'object' && ('isValid' in json || 'success' in json || 'kinds' in json)
    if (!res.ok && REFUSED_STATUS.has(res.status) && !answered)
      throw new NotAccepted(`facilitator ${name}${path} refused the request (${res.status})`)
    if (json === undefined) throw new Error(`facilitator ${name}${path} answered ${res.status} with non-JSON`)
    if (!res.ok && (!answered || !answersOn(res.status)))
      throw new Error(`facilitator ${name}${path} answered ${res.status}`)
    return json as T
  }
  return {
    kind: 'remote',
    url: name,
    async verify(p, req): Promise<VerifyResult> {
      const r = await call<VerifyResult>('POST', '/verify', body(p, req), o.verifyTimeoutMs ?? 10_000)
      if (typeof r.isValid !== 'boolean') throw new Error(`facilitator ${name}/verify answered without isValid`)
      return r
    },
    /**
     * Only a clean answer is taken as it stands: HTTP 2xx with success:true and a transaction hash (settled), or
     * a 2xx/4xx success:false without any transaction (failed: refused). A 5xx (or other non-2xx, non-4xx) answer of
     * any body throws (unknown: the gate keeps the payment pending); success:false naming a transaction, or success
     * without one, is pending. With RPC_URL the answer is then checked on chain either way
     * (runtime/pay/facilitator/proven-settle.ts).
     */
    async settle(p, req, onSubmitted): Promise<SettleResult> {
      const r = await call<SettleResult>(
        'POST',
        '/settle',
        body(p, req),
        o.settleTimeoutMs ?? 90_000,
        (status) => status >= 400 && status < 500,
      )
      if (typeof r.success !== 'boolean') throw new Error(`facilitator ${name}/settle answered without success`)
      const tx =
        typeof r.transaction === 'string' && (o.transactionPattern ?? EVM_TX).test(r.transaction) ? r.transaction : ''
      if (tx) onSubmitted(tx)
      const clean = r.success ? !!tx : !tx && r.errorReason !== REASON.settlementPending
      if (clean) return { ...r, transaction: tx, network: r.network ?? req.network }
      return {
        ...r,
        success: false,
        transaction: tx,
        network: r.network ?? req.network,
        errorReason: REASON.settlementPending,
        pending: true,
        note: `facilitator answered success:${r.success}${tx ? ' with a transaction' : ' without a transaction'}${r.errorReason ? ` (${String(r.errorReason).slice(0, 80)})` : ''}`,
      }
    },
    async supported(): Promise<SupportedKinds> {
      const r = await call<SupportedKinds>('GET', '/supported', undefined, o.verifyTimeoutMs ?? 10_000)
      if (!Array.isArray(r.kinds)) throw new Error(`facilitator ${name}/supported answered without kinds`)
      return r
    },
    async status(): Promise<ChainStatus> {
      return { state: 'unknown' }
    },
  }
}
