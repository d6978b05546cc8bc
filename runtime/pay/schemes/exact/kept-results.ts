import { getAddress, isAddressEqual } from 'viem/utils'
import type { ResultStoreLike, StoredResult } from '../../../db/store'
import { b64json } from '../../wire'
import { cheapChecks } from '../../checks'
import type { Ticket } from './gate'
import type { Collected } from '../../server/doors'
export { requestHash } from '../../server/request-hash'
import { recoverSigner } from '../../signature'
import type { DecodedPayment, ExactPayload, PaymentRequirements } from '../../types'

/** A kept result stays collectable this long after its authorization's validBefore. */
export const RESULT_GRACE_S = 600
/** Retry-After (s) for a payment still in flight, and for one whose settlement is pending reconciliation. */
export const RETRY_IN_FLIGHT_S = 2
export const RETRY_PENDING_S = 10

/** A successful settlement's PAYMENT-RESPONSE value, fields in the order settle-kept.ts writes them. */
const successReceipt = (transaction: string, network: string, payer: string) =>
  b64json({ success: true, transaction, network, payer })

const AUTH_FIELDS = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const

/**
 * True when the presented payment is the stored one: the same authorization, and either the very same signature
 * or (65-byte ECDSA) a signature that recovers to the payer, the check runtime/pay/checks.ts makes.
 */
async function holdsAuthorization(p: DecodedPayment, row: StoredResult, req: PaymentRequirements): Promise<boolean> {
  let stored: ExactPayload
  try {
    stored = (JSON.parse(row.payload) as { payload: ExactPayload }).payload
  } catch {
    return false
  }
  const a = p.payload.authorization
  if (!AUTH_FIELDS.every((f) => String(a[f]).toLowerCase() === String(stored?.authorization?.[f]).toLowerCase()))
    return false
  if (p.payload.signature.toLowerCase() === stored.signature?.toLowerCase()) return true
  if ((p.payload.signature.length - 2) / 2 !== 65) return false
  try {
    return isAddressEqual(getAddress(await recoverSigner(a, p.payload.signature, req)), getAddress(a.from))
  } catch {
    return false
  }
}

/**
 * Paid results collectable again (x402 issues #1062/#2294): the identical payment for the identical request, or
 * the same payment identifier (extension `payment-identifier`) for the identical request, gets the kept answer
 * and receipt instead of a second settlement. Framework-free; the pipeline turns outcomes into responses.
 */
export class PaidResults {
  constructor(
    private store: ResultStoreLike,
    private nowS = () => Math.floor(Date.now() / 1000),
  ) {}

  private outcome(row: StoredResult): Collected | null {
    switch (row.state) {
      case 'settled': {
        if (row.body === null) return { kind: 'gone' }
        if (row.receipt) return { kind: 'result', body: row.body, receipt: row.receipt }
        const receipt = this.rebuiltReceipt(row)
        const { transaction, network, payer } = JSON.parse(Buffer.from(receipt, 'base64').toString('utf8'))
        return {
          kind: 'result',
          body: row.body,
          receipt,
          unsigned: { paymentId: row.payment_id, transaction, network, payer },
        }
      }
      case 'pending':
        return { kind: 'pending', retryAfter: RETRY_PENDING_S }
      case 'reserved':
      case 'verified':
      case 'settling':
        return { kind: 'pending', retryAfter: RETRY_IN_FLIGHT_S }
      default:
        return null
    }
  }

  /**
   * The receipt rebuilt from the ledger: what the pipeline sends for a settlement (same fields, same order), and
   * the receipt of a payment settled by reconciliation (the request that paid never saw success).
   */
  private rebuiltReceipt(row: StoredResult): string {
    let payer = row.payer
    try {
      payer = (JSON.parse(row.payload) as { payload: ExactPayload }).payload.authorization.from
    } catch {
      /* the ledger's lower-case copy */
    }
    return successReceipt(row.tx_hash ?? '', row.network, payer)
  }

  /**
   * A payment carrying an identifier that already maps to a payment of this payer: collect, conflict or wait.
   * The presented payment must pass every local check (fresh, ours, signed by the payer); when it cannot be
   * checked locally (a contract-wallet signature), null: the gate verifies it and `claim` decides.
   */
  async byIdentifier(
    p: DecodedPayment,
    key: string,
    req: PaymentRequirements,
    hash: string,
  ): Promise<Collected | null> {
    const row = await this.store.byKey(p.payload.authorization.from, key)
    if (!row) return null
    try {
      if (!(await cheapChecks(p, req, this.nowS())).signatureChecked) return null
    } catch {
      return null
    }
    return row.request_hash === hash ? this.outcome(row) : { kind: 'conflict' }
  }

  /**
   * A payment the gate refused as already used (or expired): when it is the very payment of a kept result for the
   * identical request, the kept outcome; otherwise null (the refusal stands).
   */
  async byAuthorization(p: DecodedPayment, req: PaymentRequirements, hash: string): Promise<Collected | null> {
    const a = p.payload.authorization
    const row = await this.store.byAuthorization(req.network, a.from, a.nonce)
    if (!row || row.request_hash !== hash) return null
    if (!(await holdsAuthorization(p, row, req))) return null
    return this.outcome(row)
  }

  private input(t: Ticket, key: string | null, hash: string) {
    const a = t.payment.payload.authorization
    return {
      paymentId: t.id,
      payer: a.from,
      nonce: a.nonce,
      key,
      requestHash: hash,
      expiresAt: Number(a.validBefore) + RESULT_GRACE_S,
    }
  }

  /** Claims a payment identifier for a verified payment; an outcome when another payment already holds it. */
  async claim(t: Ticket, key: string, hash: string): Promise<Collected | null> {
    const held = await this.store.claim({ ...this.input(t, key, hash), key })
    if (!held) return null
    if (held.request_hash !== hash) return { kind: 'conflict' }
    return this.outcome(held) ?? { kind: 'pending', retryAfter: RETRY_IN_FLIGHT_S }
  }

  /** Keeps the answer of a successful handler, before settlement (collectable only once the payment is settled). */
  async keep(t: Ticket, key: string | null, hash: string, body: string): Promise<void> {
    await this.store.keep(this.input(t, key, hash), body)
  }

  /**
   * The payment settled in this request: record the receipt sent with the answer. Never throws: the payer has paid
   * and gets its answer; without the stored copy a later collection rebuilds the receipt from the ledger.
   */
  async settled(t: Ticket, receipt: string, transaction: string): Promise<void> {
    // A receipt without a signed one (its signing failed) is the one rebuilt from the ledger: then no write.
    if (receipt === successReceipt(transaction, t.requirements.network, t.payment.payload.authorization.from)) return
    try {
      await this.store.setReceipt(t.id, receipt)
    } catch {
      /* rebuilt from the ledger on collection */
    }
  }

  /** A receipt signed at collection (runtime/pay/schemes/exact/settle-kept.ts) is kept, so every collection sends the same one. */
  async receiptIssued(paymentId: number, receipt: string): Promise<void> {
    try {
      await this.store.setReceipt(paymentId, receipt)
    } catch {
      /* signed again on the next collection */
    }
  }

  /**
   * The payment will never settle (handler failed, caller left, settlement failed): forget its row. Never throws;
   * a row left behind is never served (its payment is not settled) and is purged.
   */
  async discard(t: Ticket): Promise<void> {
    try {
      await this.store.discard(t.id)
    } catch {
      /* purged later */
    }
  }

  purge(): Promise<number> | number {
    return this.store.purge()
  }

  /** Writes buffered results (at shutdown). */
  async close(): Promise<void> {
    await this.store.close()
  }
}
