/**
 * MPP (the Machine Payments Protocol, paymentauth.org) beside x402, as a payment plugin of the resource server:
 * method `evm`, intent `charge`, paid by an EIP-3009 authorization, so settled by the same engine as `exact`
 * (handed over at boot as the server's `Eip3009Settlement`: one ledger, payer holds, failure throttles and
 * reconciliation). Its 402 challenge rides beside x402's (`WWW-Authenticate: Payment`), its credential comes in
 * `Authorization: Payment` (MCP: `_meta["org.paymentauth/credential"]`), its errors are problem details with a fresh
 * challenge, its paid answer carries `Payment-Receipt`. A credential's challenge is single use (MPP's rule): a used
 * one is refused, never collected; concurrent copies reserve one ledger row, so one settles.
 * @module pay/schemes/mpp/scheme
 */
import { ServiceError } from '../../../sdk'
import { ignoredFieldsHeader } from '../../../input/ignored-header'
import { PaymentRefused } from '../../wire'
import type { PaymentRequirements } from '../../types'
import type { Eip3009Settlement, SettlementTicket } from '../../server/eip3009-settlement'
import type {
  Admission,
  PaidCallDeps,
  PaidRequest,
  PaymentHold,
  PresentedPayment,
  SchemePlugin,
  SchemeRequest,
  SettleOutcome,
} from '../../server/doors'
import { requestHash } from '../../server/request-hash'
import { receiptExtension } from '../../server/receipts'
import { challengesFor, headerOf } from './challenge'
import { bindCredential, isProblem, type BoundCredential } from './credential'
import { problemBody, problemOfReason, type Problem } from './problem'
import { mppReceipt, receiptHeader } from './receipt'
import type { MppKeys } from './secret'

export const MPP_SCHEME = 'mpp'
/** The header of a paid MPP answer. */
export const RECEIPT_HEADER = 'payment-receipt'

export interface MppOptions {
  engine: Eip3009Settlement
  keys: MppKeys
  /** How long a challenge stays payable (the 402's maxTimeoutSeconds: the authorization's validBefore is bounded by it). */
  ttlS: number
}

/** A refusal as the doors answer it: the 402 (both protocols' challenges) with the problem details as its body. */
export function refusedWith(p: Problem, requestId: string): Admission {
  return {
    kind: 'refused',
    reason: p.reason ?? `mpp_${p.type.replaceAll('-', '_')}`,
    message: p.detail,
    headers: {},
    problem: problemBody(p, requestId),
  }
}

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
    const bound = bindCredential(s.header, s.accepts, this.o.keys)
    if (isProblem(bound)) return refusedWith(bound, requestId)
    const { engine } = this.o
    let ticket: SettlementTicket
    try {
      ticket = await engine.authorize(bound.payment, bound.requirements, svc.slug, tier, requestId, client)
    } catch (e) {
      if (e instanceof PaymentRefused) {
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
    const purchase = {
      resourceUrl: s.request.resource,
      service: svc.slug,
      tier,
      requestHash: requestHash(svc.slug, tier, s.request.raw),
      requestId,
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

  private hold(
    ticket: SettlementTicket,
    bound: BoundCredential,
    purchase: { resourceUrl: string; service: string; tier: string; requestHash: string; requestId: string },
    deps: PaidCallDeps,
  ): PaymentHold {
    const { engine } = this.o
    return {
      // A used challenge is refused, never collected (MPP's rule): nothing to keep.
      keep: async () => {},
      settle: () => this.settle(ticket, bound, purchase, deps),
      failed: (status, code) => engine.failed(ticket, status, code),
      release: (why) =>
        engine.release(ticket, why).catch((e) =>
          deps.log.error('release failed; the reconciler releases it', {
            request_id: purchase.requestId,
            error: String(e),
          }),
        ),
    }
  }

  private async settle(
    t: SettlementTicket,
    bound: BoundCredential,
    purchase: { resourceUrl: string; service: string; tier: string; requestHash: string; requestId: string },
    deps: PaidCallDeps,
  ): Promise<SettleOutcome> {
    const settled = await this.o.engine.settle(t)
    if (!settled.success) {
      const detail = settled.pending
        ? 'the settlement is not confirmed yet; the result is withheld (the payment is reconciled against the chain, and is not charged twice)'
        : 'the settlement did not complete; the result is withheld and nothing was charged'
      const problem: Problem = {
        type: 'verification-failed',
        detail,
        reason: settled.errorReason ?? 'settlement_failed',
        challengeId: bound.challenge.id,
      }
      return {
        ok: false,
        reason: problem.reason!,
        message: detail,
        pending: Boolean(settled.pending),
        headers: settled.pending ? { 'retry-after': '10' } : {},
        problem: problemBody(problem, purchase.requestId),
      }
    }
    let extensions: Record<string, unknown> | undefined
    try {
      extensions = receiptExtension(
        await deps.receipts.issue({
          ...purchase,
          scheme: 'exact',
          network: settled.network,
          asset: t.requirements.asset,
          amount: t.requirements.amount,
          payTo: t.requirements.payTo,
          payer: settled.payer ?? t.payer,
          transaction: settled.transaction,
        }),
      )
    } catch (e) {
      deps.log.error('signing the receipt failed', { request_id: purchase.requestId, error: String(e) })
    }
    const receipt = mppReceipt(settled.transaction, bound.challenge.id, bound.chainId, extensions)
    return {
      ok: true,
      headerName: RECEIPT_HEADER,
      header: receiptHeader(receipt),
      response: receipt as unknown as Record<string, unknown>,
    }
  }
}
