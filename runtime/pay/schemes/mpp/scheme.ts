/**
 * MPP (the Machine Payments Protocol, paymentauth.org) beside x402, as a payment plugin of the resource server:
 * method `evm`, intent `charge`, paid by an EIP-3009 authorization, so settled by the same engine as `exact`
 * (handed over at boot as the server's `Eip3009Settlement`: one ledger, payer holds, failure throttles and
 * reconciliation). Its 402 challenge rides beside x402's (`WWW-Authenticate: Payment`), its credential comes in
 * `Authorization: Payment` (MCP: `_meta["org.paymentauth/credential"]`), its errors are problem details with a fresh
 * challenge, its paid answer carries `Payment-Receipt`. A credential pays once: concurrent copies reserve one ledger
 * row, so one settles. Its result is kept before it is charged (the engine's kept results, as `exact`'s): the same
 * credential sent again for the same request collects it (a settlement left pending collects once reconciled),
 * never running the handler or settling again; for another request a used credential is refused.
 * @module pay/schemes/mpp/scheme
 */
import { ServiceError } from '../../../sdk'
import { ignoredFieldsHeader } from '../../../input/ignored-header'
import { PaymentRefused } from '../../wire'
import { REASON } from '../../reasons'
import type { PaymentRequirements } from '../../types'
import type { Eip3009Settlement, SettlementTicket } from '../../server/eip3009-settlement'
import type {
  Admission,
  Collected,
  PaidCallDeps,
  PaidRequest,
  PaymentHold,
  PresentedPayment,
  SchemePlugin,
  SchemeRequest,
  SettleOutcome,
} from '../../server/doors'
import { requestHash } from '../../server/request-hash'
import { receiptOf, type Purchase } from '../../server/receipts'
import { challengesFor, headerOf } from './challenge'
import { bindCredential, isProblem, type BoundCredential } from './credential'
import { problemBody, problemOfReason, type Problem } from './problem'
import { mppReceipt, receiptHeader } from './receipt'
import type { MppKeys } from './secret'

export const MPP_SCHEME = 'mpp'
/** The header of a paid MPP answer. */
export const RECEIPT_HEADER = 'payment-receipt'
/** The protocol its payments are recorded under in the ledger (/stats' per-protocol split). */
export const MPP_PROTOCOL = 'mpp'
/** Retry-After (s) of a settlement pending reconciliation: the same credential sent again collects the result. */
export const RETRY_PENDING_S = 10

export interface MppOptions {
  engine: Eip3009Settlement
  keys: MppKeys
  /** How long a challenge stays payable (the 402's maxTimeoutSeconds: the authorization's validBefore is bounded by it). */
  ttlS: number
}

/** A refusal as the doors answer it: the 402 (both protocols' challenges) with the problem details as its body. */
export function refusedWith(p: Problem, requestId: string, headers: Record<string, string> = {}): Admission {
  return {
    kind: 'refused',
    reason: p.reason ?? `mpp_${p.type.replaceAll('-', '_')}`,
    message: p.detail,
    headers,
    problem: problemBody(p, requestId),
  }
}

/** The problem of a payment whose settlement is not confirmed yet: send the same credential again later. */
const pendingProblem = (challengeId: string, retryAfter: number): Problem => ({
  type: 'verification-failed',
  detail: `the settlement of this credential is not confirmed yet; the result is kept: send the same credential for the same request again after ${retryAfter} s to collect it (it is not charged twice)`,
  reason: REASON.settlementPending,
  challengeId,
})

/**
 * The headers of a pending answer: Retry-After, and as MPP's challenge the credential's own (echoed), in place of a
 * fresh one. A client (mppx's fetch and MCP client alike) pays the challenge of a 402 it got after paying: a fresh
 * one would be a second payment for the same request while the first may still confirm; the echoed one is the same
 * credential again (its nonce is bound to the challenge), which collects the result once the transfer is confirmed.
 */
const pendingHeaders = (bound: BoundCredential, retryAfter: number): Record<string, string> => ({
  'retry-after': String(retryAfter),
  'www-authenticate': headerOf([bound.challenge]),
})

export class MppScheme implements SchemePlugin {
  readonly name = MPP_SCHEME
  constructor(private o: MppOptions) {}

  /** The `WWW-Authenticate` value of a 402 (the resource's `exact` entries as fresh `evm` `charge` challenges). */
  challengeHeader(accepts: readonly PaymentRequirements[]): string {
    return headerOf(challengesFor(this.o.keys, accepts, this.o.ttlS))
  }

  /** An `Authorization: Payment` credential (the pipeline marks it `protocol: 'mpp'`). */
  claims(p: PresentedPayment): boolean {
    return p.protocol === 'mpp'
  }

  /** MPP's challenges beside x402's on every 402 of the resource. */
  challengeHeaders(_r: PaidRequest, base: PaymentRequirements[]): Record<string, string> {
    const header = this.challengeHeader(base)
    return header ? { 'www-authenticate': header } : {}
  }

  /** The first door for an MPP credential (`s.header`: the `Payment …` value). */
  async admit(s: SchemeRequest, deps: PaidCallDeps): Promise<Admission> {
    const { svc, tier, requestId, client } = s.request
    const purchase: Purchase = {
      resourceUrl: s.request.resource,
      service: svc.slug,
      tier,
      requestHash: requestHash(svc.slug, tier, s.request.raw),
      requestId,
    }
    const bound = bindCredential(s.header, s.accepts, this.o.keys)
    if (isProblem(bound)) {
      // An expired challenge still collects the result it paid for (a settlement pending then, reconciled since).
      if (bound.type === 'payment-expired') {
        const late = bindCredential(s.header, s.accepts, this.o.keys, Date.now(), true)
        const got = isProblem(late) ? null : await this.collect(late, purchase, deps)
        if (got) return got
      }
      return refusedWith(bound, requestId)
    }
    const { engine } = this.o
    let ticket: SettlementTicket
    try {
      ticket = await engine.authorize(
        bound.payment,
        bound.requirements,
        svc.slug,
        tier,
        requestId,
        client,
        MPP_PROTOCOL,
      )
    } catch (e) {
      if (e instanceof PaymentRefused) {
        // Used (or expired) already: the same credential for the same request collects its kept result.
        if (e.reason === REASON.authorizationAlreadyUsed || e.reason === REASON.validBefore) {
          const got = await this.collect(bound, purchase, deps)
          if (got) return got
        }
        const type = problemOfReason(e.reason)
        const detail =
          type === 'invalid-challenge'
            ? 'this challenge was already used (or is in use); pay a fresh challenge'
            : e.message || e.reason
        return refusedWith({ type, detail, reason: e.reason, challengeId: bound.challenge.id }, requestId)
      }
      if (engine.unavailable(e))
        throw new ServiceError(503, 'PAYMENT_UNAVAILABLE', (e as Error).message, {
          headers: { 'retry-after': '5' },
          retryable: true,
        })
      throw e
    }
    return {
      kind: 'admitted',
      call: {
        request: s.request,
        input: s.input,
        headers: ignoredFieldsHeader(s.ignored),
        hold: this.hold(ticket, bound, purchase, deps),
        payer: ticket.payer,
      },
    }
  }

  /**
   * The kept outcome of this credential's authorization for this very request, as the doors answer it: the result
   * with its `Payment-Receipt`, a pending settlement's problem (Retry-After), a result too large to keep (409); null
   * when there is none (the refusal stands: another request, or nothing kept).
   */
  private async collect(bound: BoundCredential, purchase: Purchase, deps: PaidCallDeps): Promise<Admission | null> {
    const got = await this.o.engine.results.byAuthorization(bound.payment, bound.requirements, purchase.requestHash)
    if (!got) return null
    if (got.kind === 'pending')
      return refusedWith(
        pendingProblem(bound.challenge.id, got.retryAfter),
        purchase.requestId,
        pendingHeaders(bound, got.retryAfter),
      )
    if (got.kind !== 'result') return { kind: 'collected', collected: got, version: 2 }
    return { kind: 'collected', collected: await this.receipted(got, bound, purchase, deps), version: 2 }
  }

  /**
   * A kept result's `Payment-Receipt`: the one sent when it settled in its request, or (settled by reconciliation,
   * `unsigned`) one made now with this server's signed receipt, kept so every later collection sends the same.
   */
  private async receipted(
    got: Extract<Collected, { kind: 'result' }>,
    bound: BoundCredential,
    purchase: Purchase,
    deps: PaidCallDeps,
  ): Promise<Collected> {
    if (!got.unsigned) return { kind: 'result', body: got.body, receipt: got.receipt, headerName: RECEIPT_HEADER }
    const { paymentId, transaction, network, payer } = got.unsigned
    const r = bound.requirements
    const paid = { scheme: 'exact', network, asset: r.asset, amount: r.amount, payTo: r.payTo, payer, transaction }
    const extensions = await receiptOf(deps, purchase, paid)
    const receipt = receiptHeader(mppReceipt(transaction, bound.challenge.id, bound.chainId, extensions))
    if (extensions) await this.o.engine.results.receiptIssued(paymentId, receipt)
    return { kind: 'result', body: got.body, receipt, headerName: RECEIPT_HEADER }
  }

  private hold(ticket: SettlementTicket, bound: BoundCredential, purchase: Purchase, deps: PaidCallDeps): PaymentHold {
    const { engine } = this.o
    const { results } = engine
    return {
      // Kept before it is charged: a settlement that ends up pending is collected by the same credential later.
      keep: (body) => results.keep(ticket, null, purchase.requestHash, body),
      settle: () => this.settle(ticket, bound, purchase, deps),
      async failed(status, code) {
        await results.discard(ticket)
        await engine.failed(ticket, status, code)
      },
      release: async (why) => {
        await results.discard(ticket)
        await engine.release(ticket, why).catch((e) =>
          deps.log.error('release failed; the reconciler releases it', {
            request_id: purchase.requestId,
            error: String(e),
          }),
        )
      },
    }
  }

  private async settle(
    t: SettlementTicket,
    bound: BoundCredential,
    purchase: Purchase,
    deps: PaidCallDeps,
  ): Promise<SettleOutcome> {
    const { results } = this.o.engine
    const settled = await this.o.engine.settle(t)
    if (!settled.success) {
      const reason = settled.errorReason ?? 'settlement_failed'
      // A pending settlement keeps the result: the same credential sent again collects it once the transfer is confirmed.
      if (!settled.pending) await results.discard(t)
      const problem: Problem = settled.pending
        ? { ...pendingProblem(bound.challenge.id, RETRY_PENDING_S), reason }
        : {
            type: 'verification-failed',
            detail: 'the settlement did not complete; the result is withheld and nothing was charged',
            reason,
            challengeId: bound.challenge.id,
          }
      return {
        ok: false,
        reason,
        message: problem.detail,
        pending: Boolean(settled.pending),
        headers: settled.pending ? pendingHeaders(bound, RETRY_PENDING_S) : {},
        problem: problemBody(problem, purchase.requestId),
      }
    }
    const extensions = await receiptOf(deps, purchase, {
      scheme: 'exact',
      network: settled.network,
      asset: t.requirements.asset,
      amount: t.requirements.amount,
      payTo: t.requirements.payTo,
      payer: settled.payer ?? t.payer,
      transaction: settled.transaction,
    })
    const receipt = mppReceipt(settled.transaction, bound.challenge.id, bound.chainId, extensions)
    const header = receiptHeader(receipt)
    // Kept with the result: the same credential sent again for the same request gets this very receipt.
    await results.settled(t, header, settled.transaction)
    return { ok: true, headerName: RECEIPT_HEADER, header, response: receipt as unknown as Record<string, unknown> }
  }
}
