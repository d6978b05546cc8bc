/**
 * The `exact` scheme behind the paid call's doors: one EIP-3009 authorization per call. Admission decodes it, lets
 * a repeated payment collect its kept result, and has the gate verify and reserve it; the hold it returns keeps the
 * result, settles it (with the signed receipt) or releases the authorization.
 * Registered as a plugin by boot (`exactScheme`): the first scheme, which takes every payment no other claims.
 * @module pay/schemes/exact/scheme
 */
import { REASON } from '../../reasons'
import type { DecodedPayment } from '../../types'
import { decodePayment, PaymentRefused } from '../../wire'
import { requirementsOfPayment } from '../../server/challenge'
import type { Admission, Collected, PaidCallDeps, PaymentHold, SchemePlugin, SchemeRequest } from '../../server/doors'
import { FacilitatorUnavailable, type PaymentGate, type Ticket } from './gate'
import { requestHash, type PaidResults } from './kept-results'
import { paymentIdentifierOf } from '../../server/payment-id'
import { RunningCalls } from '../../server/running-calls'
import { settleKept, signedCollection } from './settle-kept'
import type { Purchase } from '../../server/receipts'
import { ignoredFieldsHeader } from '../../../input/ignored-header'
import { ServiceError } from '../../../sdk'

/** What `exact` holds beside the paid call's deps: the gate (verify, reserve, settle) and the kept results. */
export interface ExactParts {
  gate: PaymentGate
  /** Paid results kept for collection again (same payment or payment identifier, same request). */
  results: PaidResults
}

type ExactDeps = PaidCallDeps & ExactParts

/** The `exact` scheme as the resource server's plugin: registered first, it takes what no other scheme claims. */
export function exactScheme(parts: ExactParts): SchemePlugin {
  return { name: 'exact', claims: () => false, admit: (s, deps) => admitExact(s, { ...deps, ...parts }) }
}

/** Paid calls running in this process (per authorization and request), for the identical retry of a timed-out client. */
const running = new RunningCalls()

const refused = (reason: string, message: string, headers: Record<string, string> = {}): Admission => ({
  kind: 'refused',
  reason,
  message,
  headers,
})

/** Drops the kept result and releases a payment reserved for a request that failed before settlement. */
async function releaseHeld(t: Ticket, deps: ExactDeps, requestId: string, why: string): Promise<void> {
  await deps.results.discard(t)
  await deps.gate
    .release(t, why)
    .catch((re) =>
      deps.log.error('release failed; the reconciler releases it', { request_id: requestId, error: String(re) }),
    )
}

/** The hold of a reserved `exact` payment: its ticket, kept result and settlement. */
function exactHold(ticket: Ticket, key: string | null, hash: string, purchase: Purchase, deps: ExactDeps): PaymentHold {
  return {
    // Kept before settling, so a payment whose settlement ends up pending can collect it once reconciled.
    keep: (body) => deps.results.keep(ticket, key, hash, body),
    settle: () => settleKept(deps, ticket, purchase),
    async failed(status, code) {
      await deps.results.discard(ticket)
      await deps.gate.failed(ticket, status, code)
    },
    release: (why) => releaseHeld(ticket, deps, purchase.requestId, why),
  }
}

/**
 * The first door for `exact`: decode -> a repeated payment (same payment identifier, or same authorization) for the
 * same request collects its kept result -> the gate verifies and reserves. Whatever it reserved and does not hand
 * over as `admitted` is released here.
 */
export async function admitExact(s: SchemeRequest, deps: ExactDeps): Promise<Admission> {
  const { svc, tier, requestId, client } = s.request
  // A repeated payment (same authorization, or same payment identifier) for the same request collects its kept result.
  const hash = requestHash(svc.slug, tier, s.request.raw)
  // Decoded once here; the gate checks this same decoded payment.
  let decoded: DecodedPayment
  try {
    decoded = decodePayment(s.header, s.version)
  } catch (e) {
    if (e instanceof PaymentRefused) return refused(e.reason, e.message)
    throw e
  }
  const key = paymentIdentifierOf(decoded)
  // With several networks (NETWORKS): the requirements of the network the payment names.
  const requirements = requirementsOfPayment(s.accepts, decoded)
  const purchase: Purchase = { resourceUrl: s.request.resource, service: svc.slug, tier, requestHash: hash, requestId }
  const collect = async (got: Collected): Promise<Admission> => ({
    kind: 'collected',
    collected: await signedCollection(deps, got, purchase, requirements),
    version: s.version,
  })
  if (key) {
    const got = await deps.results.byIdentifier(decoded, key, requirements, hash)
    if (got) return collect(got)
  }
  // Marked before verification: an identical retry while this call verifies is told to wait, not to sign again.
  const done = running.start(decoded, hash) ?? undefined
  let ticket: Ticket | undefined
  let handedOver = false
  try {
    try {
      ticket = await deps.gate.authorize(decoded, requirements, svc.slug, tier, requestId, client)
    } catch (e) {
      if (e instanceof PaymentRefused) {
        if (e.reason === REASON.authorizationAlreadyUsed || e.reason === REASON.validBefore) {
          const got = await deps.results.byAuthorization(decoded, requirements, hash)
          if (got) return collect(got)
          // The same payment for the same request is still running here (the client gave up waiting): wait for it.
          if (e.reason === REASON.authorizationAlreadyUsed && !done && running.running(decoded, hash))
            return refused(
              REASON.settlementPending,
              'This payment is being processed for this identical request; send it again in a few seconds to collect the result.',
              { 'retry-after': '2' },
            )
        }
        return refused(e.reason, e.message)
      }
      if (e instanceof FacilitatorUnavailable)
        throw new ServiceError(503, 'PAYMENT_UNAVAILABLE', e.message, {
          headers: { 'retry-after': '5' },
          retryable: true,
        })
      throw e
    }
    if (key) {
      const held = await deps.results.claim(ticket, key, hash)
      if (held) {
        await deps.gate.release(ticket, 'payment identifier already used')
        ticket = undefined
        return collect(held)
      }
    }
    handedOver = true
    const hold = exactHold(ticket, key, hash, purchase, deps)
    return {
      kind: 'admitted',
      call: {
        request: s.request,
        input: s.input,
        headers: ignoredFieldsHeader(s.ignored),
        hold,
        payer: ticket.payer,
        done,
      },
    }
  } catch (e) {
    if (ticket) await releaseHeld(ticket, deps, requestId, 'request failed before settlement')
    throw e
  } finally {
    if (!handedOver) done?.()
  }
}
