import type { DecodedPayment } from './types'

/**
 * Authorizations whose paid call is running in this process, each with the hash of its request. A client that
 * timed out and sends the identical payment for the identical request again while the first call still runs is
 * told to wait (402 `settlement_pending` with Retry-After) rather than to sign a new authorization, which would pay
 * twice; once the first call has settled, the same payment collects its kept result. Another instance does not see
 * this process's calls: there the answer stays `authorization_already_used`.
 */
export class InFlightCalls {
  private calls = new Map<string, string>()

  private key(p: DecodedPayment): string {
    const a = p.payload.authorization
    return `${a.from.toLowerCase()}:${a.nonce.toLowerCase()}`
  }

  start(p: DecodedPayment, requestHash: string): () => void {
    const k = this.key(p)
    this.calls.set(k, requestHash)
    return () => {
      if (this.calls.get(k) === requestHash) this.calls.delete(k)
    }
  }

  /** True when this exact authorization is running here for the identical request. */
  running(p: DecodedPayment, requestHash: string): boolean {
    return this.calls.get(this.key(p)) === requestHash
  }
}
