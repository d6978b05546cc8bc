import { toV1, v1NetworkOf } from './challenge'
import type { DecodedPayment, Facilitator, PaymentRequirements, SettleResult, VerifyResult } from './types'

export interface RemoteFacilitatorOptions {
  url: string
  /** Sent as the Authorization header on every call (for hosted facilitators). */
  authHeader?: string
  verifyTimeoutMs?: number
  settleTimeoutMs?: number
  fetch?: typeof fetch
}

/**
 * The x402 facilitator HTTP API (/verify, /settle). Verify/settle bodies are always OUR requirements
 * (v1-shaped for v1 payloads). Transport failures throw, so the gate answers 503 and serves nothing.
 */
export function createRemoteFacilitator(o: RemoteFacilitatorOptions): Facilitator {
  const f = o.fetch ?? fetch
  const base = o.url.replace(/\/+$/, '')
  const body = (p: DecodedPayment, req: PaymentRequirements) => ({
    x402Version: p.x402Version,
    paymentPayload: p.raw,
    paymentRequirements: p.x402Version === 2 ? (({ mimeType: _m, ...r }) => r)(req) : { ...toV1(req, String(req.extra.resource ?? o.url), String(req.extra.description ?? '')), network: v1NetworkOf(req.network) },
  })
  async function post<T>(path: string, payload: unknown, timeoutMs: number): Promise<T> {
    const res = await f(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(o.authHeader ? { authorization: o.authHeader } : {}) },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await res.text()
    let json: unknown
    try { json = JSON.parse(text) } catch { throw new Error(`facilitator ${path} answered ${res.status} with non-JSON`) }
    if (!res.ok && !(json && typeof json === 'object' && ('isValid' in json || 'success' in json))) throw new Error(`facilitator ${path} answered ${res.status}`)
    return json as T
  }
  return {
    kind: 'remote',
    async verify(p, req): Promise<VerifyResult> {
      const r = await post<VerifyResult>('/verify', body(p, req), o.verifyTimeoutMs ?? 10_000)
      if (typeof r.isValid !== 'boolean') throw new Error('facilitator /verify answered without isValid')
      return r
    },
    async settle(p, req, onSubmitted): Promise<SettleResult> {
      const r = await post<SettleResult>('/settle', body(p, req), o.settleTimeoutMs ?? 90_000)
      if (typeof r.success !== 'boolean') throw new Error('facilitator /settle answered without success')
      if (r.transaction) onSubmitted(r.transaction)
      return { ...r, network: r.network ?? req.network, pending: r.errorReason === 'settlement_pending' }
    },
    async status() {
      return 'unknown'
    },
  }
}
