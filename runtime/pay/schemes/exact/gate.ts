import { FAILED_RUN_REASON } from '../../../db/shared'
import type { LedgerStore, ThrottleStore } from '../../../db/store'
import { ServiceError, type Logger } from '../../../sdk'
import { cheapChecks } from '../../checks'
import { PaymentRefused } from '../../wire'
import { PayerCooldowns } from '../../../db/cooldowns'
import { PayerFunds } from './payer-funds'
import type { DecodedPayment, Facilitator, PaymentRequirements, SettleResult } from '../../types'
import { REASON } from '../../reasons'
import type { PaymentProtocol } from '../../server/eip3009-settlement'

/** A verified, reserved payment waiting for the handler's outcome. */
export interface Ticket {
  id: number
  payment: DecodedPayment
  requirements: PaymentRequirements
  payer: string
  slug: string
  /** The caller's address, for the refusal throttle. */
  client: string
}

export class FacilitatorUnavailable extends Error {}

/**
 * How many times one authorization may run a handler that fails (model down, upstream error, timeout ...) before it
 * is refused (`authorization_failed_runs_exhausted`): a client may retry the same payment after a failure, but one
 * signature never buys unbounded work.
 */
export const MAX_FAILED_RUNS = 3

const short = (s: string) => (s.length > 16 ? `${s.slice(0, 10)}…${s.slice(-4)}` : s)

/**
 * The payment gate: decode -> cheap local checks -> atomic reservation -> chain/facilitator verification;
 * after the handler, settle (status < 400) or release (failure). Money-safety rules live here.
 */
export class PaymentGate {
  constructor(
    private facilitator: Facilitator,
    private ledger: LedgerStore,
    private log: Logger,
    /**
     * Refusals that cost verification work and settlements that failed after verification, counted per client
     * address and per payer (`payer:0x…`); cheap refusals (malformed, replayed, expired ...) are never counted.
     */
    private refusals?: ThrottleStore,
    /** Payer cool-downs in this process (the only store on SQLite; the fallback on Postgres). */
    readonly guard = new PayerCooldowns(),
    private nowS = () => Math.floor(Date.now() / 1000),
  ) {
    this.holds = new PayerFunds(ledger, facilitator)
  }

  /** The per-payer in-flight limit: the amounts in flight are the payer's ledger rows, on both engines. */
  readonly holds: PayerFunds

  /** Counts a costly refusal against the client and, when its signature was proven, against the payer. */
  /** Resolves once recorded (a failed run awaits it, so the next attempt sees it); the refusal paths do not wait. */
  private count(client: string, payer: string | null): Promise<void> {
    const hit = (key: string) =>
      Promise.resolve(this.refusals?.hit(key)).catch((e) =>
        this.log.warn('refusal throttle unavailable', { error: (e as Error).message }),
      )
    return Promise.all([
      client ? hit(client) : undefined,
      payer ? hit(`payer:${payer.toLowerCase()}`) : undefined,
    ]).then(() => {})
  }

  /**
   * Throws PaymentRefused (402), FacilitatorUnavailable (503) or a 429 ServiceError (payer throttled). Never runs
   * the handler. `client` is the caller's address for the refusal throttle.
   */
  async authorize(
    payment: DecodedPayment,
    req: PaymentRequirements,
    slug: string,
    tier: string,
    requestId: string,
    client = '',
    /** Which protocol admitted it (the plugin's own knowledge): recorded on the ledger row for /stats. */
    protocol: PaymentProtocol = 'x402',
  ): Promise<Ticket> {
    const { signatureChecked } = await cheapChecks(payment, req, this.nowS(), this.facilitator.hasCode)
    const a = payment.payload.authorization
    const payerKey = `payer:${a.from.toLowerCase()}`
    if (this.refusals && (await this.refusals.blocked(payerKey))) {
      throw new ServiceError(
        429,
        'TOO_MANY_INVALID_PAYMENTS',
        'Too many refused payments from this payer; slow down.',
        { headers: { 'retry-after': String(await this.refusals.retryAfter(payerKey)) } },
      )
    }
    // Payer cool-downs: in this process's memory (`guard`; the only store on SQLite, no I/O), and on Postgres the
    // table shared by every instance (one indexed read).
    let cooling = this.guard.coolingFor(a.from)
    try {
      if (!cooling && this.ledger.cooldowns) cooling = await this.ledger.cooldowns.coolingFor(a.from)
    } catch (e) {
      // The shared cool-downs are unreadable: fail closed before any verification (nothing reserved or charged).
      this.log.error('payment ledger unavailable', { request_id: requestId, error: (e as Error).message })
      throw new FacilitatorUnavailable('payments are unavailable (ledger database); nothing was charged')
    }
    if (cooling > 0) {
      throw new PaymentRefused(
        REASON.payerCoolingDown,
        `A settlement for ${a.from} failed after its payment had verified (funds moved, or a wallet that only validates in simulation); payments from it are refused for another ${Math.ceil(cooling / 1000)} s.`,
      )
    }
    let id: number | null
    try {
      id = await this.ledger.reserve({
        payer: a.from,
        nonce: a.nonce,
        slug,
        tier,
        amount: req.amount,
        network: req.network,
        requestId,
        validBefore: Number(a.validBefore),
        x402Version: payment.x402Version,
        payload: payment.raw,
        requirements: req,
        protocol,
      })
    } catch (e) {
      // The ledger is unreachable: fail closed before any verification (nothing reserved, nothing charged).
      this.log.error('payment ledger unavailable', { request_id: requestId, error: (e as Error).message })
      throw new FacilitatorUnavailable('payments are unavailable (ledger database); nothing was charged')
    }
    if (id === null)
      throw new PaymentRefused(
        REASON.authorizationAlreadyUsed,
        'this payment authorization was already used (or is in use); sign a new one',
      )
    // Read once this reservation holds the authorization (one use at a time), so every earlier run is counted.
    let failedRuns: number
    try {
      failedRuns = await this.ledger.failedRuns(req.network, a.from, a.nonce)
    } catch (e) {
      await Promise.resolve(this.ledger.transition(id, 'released', { reason: 'ledger unavailable' })).catch(() => {})
      this.log.error('payment ledger unavailable', { request_id: requestId, error: (e as Error).message })
      throw new FacilitatorUnavailable('payments are unavailable (ledger database); nothing was charged')
    }
    if (failedRuns >= MAX_FAILED_RUNS) {
      await this.ledger.transition(id, 'released', { reason: REASON.failedRunsExhausted })
      // Counted (each replay writes two ledger rows): a client replaying a spent authorization is throttled.
      void this.count(client, signatureChecked ? a.from : null)
      throw new PaymentRefused(
        REASON.failedRunsExhausted,
        `this payment authorization already ran ${failedRuns} times and failed each time (at most ${MAX_FAILED_RUNS}); sign a new one`,
      )
    }
    const verifyStartedMs = Date.now()
    let verdict
    try {
      verdict = await this.facilitator.verify(payment, req)
    } catch (e) {
      await this.ledger.transition(id, 'released', { reason: 'verification unavailable' })
      this.log.warn('payment verification unavailable', { request_id: requestId, error: (e as Error).message })
      throw new FacilitatorUnavailable('payment verification is unavailable; nothing was charged')
    }
    if (!verdict.isValid) {
      await this.ledger.transition(id, 'released', { reason: verdict.invalidReason ?? 'invalid' })
      void this.count(client, signatureChecked ? a.from : null)
      throw new PaymentRefused(verdict.invalidReason ?? REASON.invalidPayment)
    }
    try {
      // reserved -> verified when the payer's balance less its payments in flight covers this one
      await this.holds.hold(id, a.from, BigInt(req.amount), req.asset, verifyStartedMs)
    } catch (e) {
      await this.ledger.transition(id, 'released', {
        reason:
          e instanceof PaymentRefused
            ? e.reason
            : e instanceof ServiceError
              ? 'another paid call of the payer is unsettled'
              : 'balance unavailable',
      })
      // A refusal after verification work (the payer short, or 429: one unsettled paid call per payer without
      // balance reads) counts like any costly refusal.
      if (e instanceof PaymentRefused || e instanceof ServiceError) {
        void this.count(client, a.from)
        throw e
      }
      this.log.warn('payer balance unavailable', { request_id: requestId, error: (e as Error).message })
      throw new FacilitatorUnavailable('payment verification is unavailable; nothing was charged')
    }
    this.log.info('payment verified', {
      request_id: requestId,
      payer: a.from,
      nonce: short(a.nonce),
      signature: short(payment.payload.signature),
    })
    return { id, payment, requirements: req, payer: a.from, slug, client }
  }

  /** Nothing ran (or the caller left): nothing is settled and the authorization may be used again. */
  async release(t: Ticket, reason: string): Promise<void> {
    await this.ledger.transition(t.id, 'released', { reason })
  }

  /**
   * The handler ran and failed with `status` and `code`: nothing is settled, and the failed run counts against the
   * authorization, which may run again until it has failed MAX_FAILED_RUNS times (the refusal throttle and the
   * payer's failing runs are counted by the one finish, runtime/pay/server/paid-call.ts `conclude`, for every
   * scheme). A 503 is this server unavailable, not the run: only released.
   */
  async failed(t: Ticket, status: number, code: string): Promise<void> {
    if (status === 503) return this.release(t, `unavailable ${status} ${code}`)
    await this.ledger.transition(t.id, 'released', { reason: `${FAILED_RUN_REASON}${status} ${code}` })
  }

  /** Settles after a successful handler. A result is served only when this returns success. */
  async settle(t: Ticket): Promise<SettleResult> {
    let done!: () => void
    this.holds.trackSettlement(
      t.payer,
      new Promise<void>((r) => {
        done = r
      }),
    )
    try {
      return await this.settleTracked(t)
    } finally {
      done()
    }
  }

  private async settleTracked(t: Ticket): Promise<SettleResult> {
    await this.ledger.transition(t.id, 'settling')
    let result: SettleResult
    try {
      result = await this.facilitator.settle(
        t.payment,
        t.requirements,
        (tx) =>
          void Promise.resolve(this.ledger.transition(t.id, 'settling', { tx })).catch((e) =>
            this.log.warn('recording the transaction hash failed', { payment_id: t.id, error: (e as Error).message }),
          ),
      )
    } catch (e) {
      // Unknown outcome (e.g. transport failure mid-call): keep it pending; the reconciler decides from the chain.
      await this.ledger.transition(t.id, 'pending', { reason: (e as Error).message.slice(0, 200) })
      this.log.error('settlement outcome unknown', { payment_id: t.id, error: (e as Error).message })
      this.holds.forget(t.payer)
      return {
        success: false,
        transaction: '',
        network: t.requirements.network,
        payer: t.payer,
        errorReason: REASON.settlementPending,
        pending: true,
      }
    }
    // A pending row stays in flight (in the ledger) until its authorization expires.
    if (!result.success) this.holds.forget(t.payer)
    result = { ...result, payer: result.payer ?? t.payer }
    if (result.success) {
      await this.ledger.settleOnce(t.id, {
        tx: result.transaction,
        gasUsed: result.gasUsed,
        effectiveGasPrice: result.effectiveGasPrice,
      })
    } else if (result.pending) {
      const reason = result.note ?? result.errorReason
      await this.ledger.transition(t.id, 'pending', { tx: result.transaction || undefined, reason })
      this.log.warn('settlement outcome unknown; pending until reconciled', { payment_id: t.id, reason })
      // The facilitator cleanly refused it (the chain cannot prove either way yet): the books wait for the chain,
      // the payer is cooled down as after a failed settlement.
      if (result.refused) await this.coolDown(t, reason)
    } else {
      const reason = result.note ?? result.errorReason
      await this.ledger.transition(t.id, 'failed', { tx: result.transaction || undefined, reason })
      await this.coolDown(t, reason)
    }
    return result
  }

  /** The payment verified, then did not settle: the handler ran for free. Cool the payer down and count it. */
  private async coolDown(t: Ticket, reason: string | undefined): Promise<void> {
    const shared = this.ledger.cooldowns
    const ms = shared
      ? await Promise.resolve()
          .then(() => shared.strike(t.payer))
          .catch((e) => {
            // Unrecorded in the shared table: cool the payer down in this process at least.
            this.log.error('payer cool-down not recorded', { payment_id: t.id, error: (e as Error).message })
            return this.guard.strike(t.payer)
          })
      : this.guard.strike(t.payer)
    await this.count(t.client, t.payer)
    this.log.warn('settlement failed after verification; payer cooling down', {
      payment_id: t.id,
      payer: t.payer,
      reason,
      cooldown_s: Math.round(ms / 1000),
    })
  }
}
