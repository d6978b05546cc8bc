import type { DecodedPayment } from '../types'

/**
 * Authorizations whose paid call is running in this process, each with the hash of its request. The mark is set
 * before the gate reserves and verifies the payment, so a client that timed out and sends the identical payment for
 * the identical request again, at any point of the first call (verifying, running, settling), is told to wait (402
 * `settlement_pending` with Retry-After) rather than to sign a new authorization, which would pay twice; once the
 * first call has settled, the same payment collects its kept result. The first call holds the mark: a second call
 * for the same authorization never replaces or clears it. Another instance does not see this process's calls: there
 * the answer stays `authorization_already_used`.
 */
export class RunningCalls {
  private calls = new Map<string, { hash: string }>()

  private key(p: DecodedPayment): string {
    const a = p.payload.authorization
    return `${a.from.toLowerCase()}:${a.nonce.toLowerCase()}`
  }

  /**
   * Marks the call running and returns the mark's release; null when another call of the same authorization holds
   * the mark (then `running` says whether that call is for the identical request).
   */
  start(p: DecodedPayment, requestHash: string): (() => void) | null {
    const k = this.key(p)
    if (this.calls.has(k)) return null
    const mark = { hash: requestHash }
    this.calls.set(k, mark)
    return () => {
      if (this.calls.get(k) === mark) this.calls.delete(k)
    }
  }

  /** True when this exact authorization is running here for the identical request. */
  running(p: DecodedPayment, requestHash: string): boolean {
    return this.calls.get(this.key(p))?.hash === requestHash
  }
}
