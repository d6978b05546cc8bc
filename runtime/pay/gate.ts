import type { Ledger } from '../db/ledger'
import type { Stats } from '../db/stats'
import type { Logger } from '../sdk'
import { cheapChecks } from './checks'
import { decodePayment, PaymentRefused } from './decode'
import type { DecodedPayment, Facilitator, PaymentRequirements, SettleResult } from './types'

/** A verified, reserved payment waiting for the handler's outcome. */
export interface Ticket {
  id: number
  payment: DecodedPayment
  requirements: PaymentRequirements
  payer: string
  slug: string
}

export class FacilitatorUnavailable extends Error {}

const short = (s: string) => (s.length > 16 ? `${s.slice(0, 10)}…${s.slice(-4)}` : s)

/**
 * The payment gate: decode -> cheap local checks -> atomic reservation -> chain/facilitator verification;
 * after the handler, settle (status < 400) or release (failure). Money-safety rules live here.
 */
export class PaymentGate {
  constructor(
    private facilitator: Facilitator,
    private ledger: Ledger,
    private stats: Stats,
    private log: Logger,
    private nowS = () => Math.floor(Date.now() / 1000),
  ) {}

  /** Throws PaymentRefused (402) or FacilitatorUnavailable (503). Never runs the handler. */
  async authorize(header: string, version: 1 | 2, req: PaymentRequirements, slug: string, tier: string, requestId: string): Promise<Ticket> {
    const payment = decodePayment(header, version)
    await cheapChecks(payment, req, this.nowS(), this.facilitator.hasCode)
    const a = payment.payload.authorization
    const id = this.ledger.reserve({
      payer: a.from, nonce: a.nonce, slug, tier, amount: req.amount, network: req.network, requestId,
      validBefore: Number(a.validBefore), x402Version: payment.x402Version, payload: payment.raw, requirements: req,
    })
    if (id === null) throw new PaymentRefused('authorization_already_used', 'this payment authorization was already used (or is in use); sign a new one')
    let verdict
    try {
      verdict = await this.facilitator.verify(payment, req)
    } catch (e) {
      this.ledger.transition(id, 'released', { reason: 'verification unavailable' })
      this.log.warn('payment verification unavailable', { request_id: requestId, error: (e as Error).message })
      throw new FacilitatorUnavailable('payment verification is unavailable; nothing was charged')
    }
    if (!verdict.isValid) {
      this.ledger.transition(id, 'released', { reason: verdict.invalidReason ?? 'invalid' })
      throw new PaymentRefused(verdict.invalidReason ?? 'invalid_payment')
    }
    this.ledger.transition(id, 'verified')
    this.log.info('payment verified', { request_id: requestId, payer: a.from, nonce: short(a.nonce), signature: short(payment.payload.signature) })
    return { id, payment, requirements: req, payer: a.from, slug }
  }

  /** The handler failed: nothing is settled and the authorization may be used again. */
  release(t: Ticket, reason: string): void {
    this.ledger.transition(t.id, 'released', { reason })
  }

  /** Settles after a successful handler. A result is served only when this returns success. */
  async settle(t: Ticket): Promise<SettleResult> {
    this.ledger.transition(t.id, 'settling')
    let result: SettleResult
    try {
      result = await this.facilitator.settle(t.payment, t.requirements, (tx) => this.ledger.transition(t.id, 'settling', { tx }))
    } catch (e) {
      // Unknown outcome (e.g. transport failure mid-call): keep it pending; the reconciler decides from the chain.
      this.ledger.transition(t.id, 'pending', { reason: (e as Error).message.slice(0, 200) })
      this.log.error('settlement outcome unknown', { payment_id: t.id, error: (e as Error).message })
      return { success: false, transaction: '', network: t.requirements.network, payer: t.payer, errorReason: 'settlement_pending', pending: true }
    }
    result = { ...result, payer: result.payer ?? t.payer }
    if (result.success) {
      if (this.ledger.settleOnce(t.id, { tx: result.transaction })) this.stats.record(t.slug, { paid_calls: 1, revenue_atomic: Number(t.requirements.amount) })
    } else if (result.pending) {
      this.ledger.transition(t.id, 'pending', { tx: result.transaction || undefined, reason: result.errorReason })
    } else {
      this.ledger.transition(t.id, 'failed', { tx: result.transaction || undefined, reason: result.errorReason })
    }
    return result
  }
}
