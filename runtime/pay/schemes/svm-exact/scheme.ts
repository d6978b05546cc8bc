/**
 * The Solana `exact` scheme behind the paid call's doors (runtime/pay/README.md): admission decodes the payer's
 * transaction, lets a repeated payment collect its kept result, reserves the payment in the ledger (keyed by network,
 * payer and the message's hash: one transaction pays once, whatever @x402/svm's 120 s duplicate cache remembers, and
 * across restarts), then has @x402/svm verify it (simulation) before the handler runs. Its hold settles only after a
 * result: the transaction id is recorded before sending, so a crash mid-settlement is reconciled from the chain.
 * @module pay/schemes/svm-exact/scheme
 */
import {
  type Address,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  type SignatureBytes,
  verifySignature,
} from '@solana/kit'
import type { PaymentRequirements as X402Requirements } from '@x402/core/types'
import { FAILED_RUN_REASON } from '../../../db/shared'
import { ignoredFieldsHeader } from '../../../input/ignored-header'
import { ServiceError } from '../../../sdk'
import { REASON } from '../../reasons'
import type { DecodedPayment } from '../../types'
import { b64json } from '../../wire'
import type { Admission, Collected, PaidCallDeps, PaymentHold, SchemeRequest, SettleOutcome } from '../../server/doors'
import { type Purchase, receiptOf } from '../../server/receipts'
import { requestHash } from '../../server/request-hash'
import { paymentIdentifierOf } from '../../server/payment-id'
import { outcomeOf, RESULT_GRACE_S, RETRY_IN_FLIGHT_S, RETRY_PENDING_S, signedCollection } from './kept'
import type { SolanaOffer } from './offer'
import { decodeSvmPayment, type SvmPayment } from './payload'

/** How many failed handler runs one Solana payment may buy before it is refused (as `exact` on Base). */
export const MAX_FAILED_RUNS = 3
/** How long a Solana payment can land: a blockhash is valid for about 150 blocks (60-90 s) on mainnet. */
export const SOLANA_PAYMENT_LIFETIME_S = 150

const refused = (reason: string, message: string, headers: Record<string, string> = {}): Admission => ({
  kind: 'refused',
  reason,
  message,
  headers,
})

const unavailable = (what: string) =>
  new ServiceError(
    503,
    'PAYMENT_UNAVAILABLE',
    `Solana payments are unavailable right now (${what}); nothing was charged.`,
    {
      headers: { 'retry-after': '5' },
      retryable: true,
    },
  )

/** The payer's own Ed25519 signature on the message is valid (checked locally, no RPC). */
async function signedByPayer(p: SvmPayment): Promise<boolean> {
  try {
    const wire = Buffer.from((p.payload.payload as { transaction: string }).transaction, 'base64')
    const tx = getTransactionDecoder().decode(new Uint8Array(wire))
    const sig = tx.signatures[p.payer as Address]
    if (!sig) return false
    return await verifySignature(
      await getPublicKeyFromAddress(p.payer as Address),
      sig as SignatureBytes,
      p.messageBytes,
    )
  } catch {
    return false
  }
}

/**
 * The per-payer in-flight limit (the ledger's `verifyWithin`, as for `exact` on Base): this payment and the payer's
 * others in flight must fit in its balance, so concurrent calls never run handlers that cannot all be paid. Nothing
 * else in flight and nothing settled since verification began: the verification's simulation already proved the
 * balance (no read). Otherwise the source token account is read; short while one of the payer's payments is being
 * sent (its transfer may already show in the read): busy, retry shortly; short otherwise: refused.
 */
async function holdFunds(
  offer: SolanaOffer,
  id: number,
  p: SvmPayment,
  amount: bigint,
  sinceMs: number,
): Promise<'ok' | { reason: string; message: string; busy?: boolean }> {
  const since = sinceMs - offer.ledger.clockSkewMs
  let r = await offer.ledger.verifyWithin(id, p.payer, amount, null, since)
  if (r.outcome === 'ok') return 'ok'
  const readAtMs = Date.now()
  let value: bigint
  try {
    value = await offer.backend.tokenBalance(p.source)
  } catch {
    throw unavailable('balance')
  }
  r = await offer.ledger.verifyWithin(id, p.payer, amount, { value, readAtMs }, since)
  if (r.outcome === 'ok') return 'ok'
  if (r.sent > 0n)
    return {
      reason: 'payer busy',
      busy: true,
      message:
        'Another paid call of this payer is being settled; send this payment again shortly. Nothing was charged.',
    }
  return {
    reason: REASON.insufficientBalance,
    message: `The payer's USDC balance minus its payments in flight (${r.inFlight}) does not cover ${amount}.`,
  }
}

/** The row of one Solana payment, as the gate of `exact` holds an authorization's. */
interface Held {
  id: number
  p: SvmPayment
  req: X402Requirements
  key: string | null
  hash: string
  purchase: Purchase
  expiresAt: number
}

const keepInput = (h: Held) => ({
  paymentId: h.id,
  payer: h.p.payer,
  nonce: h.p.messageHash,
  key: h.key,
  requestHash: h.hash,
  expiresAt: h.expiresAt,
})

async function releaseRow(offer: SolanaOffer, h: Held, reason: string, deps: PaidCallDeps): Promise<void> {
  await Promise.resolve(offer.results.discard(h.id)).catch(() => {})
  await Promise.resolve(offer.ledger.transition(h.id, 'released', { reason })).catch((e) =>
    deps.log.error('release failed; the reconciler releases it', { payment_id: h.id, error: String(e) }),
  )
}

/** Settles a held Solana payment after a result: the transaction id first, then @x402/svm's settle. */
async function settleHeld(offer: SolanaOffer, h: Held, deps: PaidCallDeps): Promise<SettleOutcome> {
  const { ledger, backend } = offer
  const tx = await backend.transactionId(h.p.messageBytes)
  // The point of no return, durable before anything is sent; then the id the chain will know it by (a remote
  // facilitator's fee payer signs: its id is known from its answer, or found on chain by reconciliation).
  await ledger.transition(h.id, 'settling')
  if (tx) await ledger.transition(h.id, 'settling', { tx })
  let settled: { success: boolean; transaction: string; errorReason?: string; payer?: string }
  let pending = false
  try {
    settled = await backend.settle(h.p.payload, h.req)
    pending = !settled.success && settled.errorReason === REASON.settlementPending
  } catch (e) {
    deps.log.error('solana settlement outcome unknown', { payment_id: h.id, error: (e as Error).message })
    settled = { success: false, transaction: tx ?? '', errorReason: REASON.settlementPending }
    pending = true
  }
  const payer = settled.payer || h.p.payer
  const response: Record<string, unknown> = {
    success: settled.success,
    transaction: settled.transaction || tx || '',
    network: offer.network,
    payer,
    ...(settled.errorReason ? { errorReason: settled.errorReason } : {}),
  }
  if (settled.success) {
    await ledger.settleOnce(h.id, { tx: settled.transaction || tx || undefined })
    const extensions = await receiptOf(deps, h.purchase, {
      scheme: 'exact',
      network: offer.network,
      asset: offer.asset,
      amount: h.req.amount,
      payTo: offer.payTo,
      payer,
      transaction: String(response.transaction),
    })
    if (extensions) response.extensions = extensions
    const header = b64json(response)
    await Promise.resolve(offer.results.setReceipt(h.id, header)).catch(() => {})
    deps.log.info('solana payment settled', { payment_id: h.id, request_id: h.purchase.requestId })
    return { ok: true, headerName: 'payment-response', header, response }
  }
  const reason = settled.errorReason ?? 'settlement_failed'
  const header = b64json(response)
  if (pending) {
    await ledger.transition(h.id, 'pending', { tx: settled.transaction || tx || undefined, reason })
    deps.log.warn('solana settlement outcome unknown; pending until reconciled', { payment_id: h.id, reason })
    return {
      ok: false,
      reason,
      message: 'Settlement is not confirmed yet; send the same payment again later to collect the result.',
      pending: true,
      headers: { 'payment-response': header, 'retry-after': String(RETRY_PENDING_S) },
    }
  }
  await ledger.transition(h.id, 'failed', { reason })
  await Promise.resolve(offer.results.discard(h.id)).catch(() => {})
  // The handler ran for a payment that then did not settle: the payer is cooled down.
  const cooldownMs = await Promise.resolve(offer.cooldowns.strike(h.p.payer)).catch((e) => {
    deps.log.error('payer cool-down not recorded', { payment_id: h.id, error: (e as Error).message })
    return 0
  })
  deps.log.warn('solana payer cooling down', { payer: h.p.payer, cooldown_s: Math.round(cooldownMs / 1000) })
  deps.log.warn('solana settlement failed after verification', { payment_id: h.id, reason })
  return {
    ok: false,
    reason,
    message: 'Settlement did not complete; the result is withheld.',
    pending: false,
    headers: { 'payment-response': header },
  }
}

function svmHold(offer: SolanaOffer, h: Held, deps: PaidCallDeps): PaymentHold {
  return {
    keep: async (body) => {
      await offer.results.keep(keepInput(h), body)
    },
    settle: () => settleHeld(offer, h, deps),
    async failed(status, code) {
      await Promise.resolve(offer.results.discard(h.id)).catch(() => {})
      const reason = status === 503 ? `unavailable ${status} ${code}` : `${FAILED_RUN_REASON}${status} ${code}`
      await offer.ledger.transition(h.id, 'released', { reason })
    },
    release: (why) => releaseRow(offer, h, why, deps),
  }
}

/**
 * The first door for a Solana payment: decode -> a repeated payment for the same request collects its kept result
 * -> reserve (once per transaction) -> verify (@x402/svm: layout, amount, mint, payee, signatures, simulation).
 * Whatever it reserved and does not hand over is released here.
 */
export async function admitSvm(
  offer: SolanaOffer,
  header: string,
  s: SchemeRequest,
  deps: PaidCallDeps,
): Promise<Admission> {
  const { svc, tier, requestId } = s.request
  const p = decodeSvmPayment(header)
  if (!p?.payer) return refused(REASON.invalidPayload, 'The Solana payment is not a well-formed exact transaction.')
  const accepted = p.payload.accepted as unknown as Record<string, unknown>
  if (p.network !== offer.network)
    return refused(REASON.invalidNetwork, `This server takes Solana payments on ${offer.network} only.`)
  if (accepted.scheme !== 'exact')
    return refused(REASON.unsupportedScheme, 'Solana payments use the exact scheme here.')
  const req = offer.entry(s.accepts[0])
  if (accepted.amount !== req.amount || accepted.asset !== req.asset || accepted.payTo !== req.payTo)
    return refused(
      REASON.noMatchingRequirements,
      `This payment does not match the Solana entry of the 402 (amount ${req.amount} of ${req.asset} to ${req.payTo}).`,
    )
  const hash = requestHash(svc.slug, tier, s.request.raw)
  const purchase: Purchase = { resourceUrl: s.request.resource, service: svc.slug, tier, requestHash: hash, requestId }
  const collect = async (got: Collected): Promise<Admission> => ({
    kind: 'collected',
    collected: await signedCollection(offer, deps, got, purchase, req.amount),
    version: 2,
  })
  const key = paymentIdentifierOf({ x402Version: 2, raw: p.payload } as unknown as DecodedPayment)
  if (key) {
    const row = await offer.results.byKey(p.payer, key)
    if (row && (await signedByPayer(p))) {
      const got = row.request_hash === hash ? outcomeOf(row, p.payer) : ({ kind: 'conflict' } as const)
      if (got) return collect(got)
    }
  }
  // A payer cooling down may still collect a kept result (above), never buy a new run.
  let cooling: number
  try {
    cooling = await offer.cooldowns.coolingFor(p.payer)
  } catch (e) {
    deps.log.error('payment ledger unavailable', { request_id: requestId, error: (e as Error).message })
    throw unavailable('ledger database')
  }
  if (cooling > 0)
    return refused(
      REASON.payerCoolingDown,
      `A settlement for ${p.payer} failed after its payment had verified; payments from it are refused for another ${Math.ceil(cooling / 1000)} s.`,
    )
  const { ledger } = offer
  const nowS = Math.floor(Date.now() / 1000)
  let id: number | null
  try {
    id = await ledger.reserve({
      payer: p.payer,
      nonce: p.messageHash,
      slug: svc.slug,
      tier,
      amount: req.amount,
      network: offer.network,
      requestId,
      validBefore: nowS + SOLANA_PAYMENT_LIFETIME_S,
      x402Version: 2,
      payload: p.payload,
      requirements: req,
    })
  } catch (e) {
    deps.log.error('payment ledger unavailable', { request_id: requestId, error: (e as Error).message })
    throw unavailable('ledger database')
  }
  if (id === null) {
    // Already used: the very same transaction for the identical request collects its kept result.
    const row = await offer.results.byAuthorization(offer.network, p.payer, p.messageHash)
    const got = row && row.request_hash === hash ? outcomeOf(row, p.payer) : null
    if (got) return collect(got)
    return refused(
      REASON.authorizationAlreadyUsed,
      'This Solana payment (transaction) was already used, or is in use; sign a new one.',
    )
  }
  const h: Held = { id, p, req, key, hash, purchase, expiresAt: nowS + SOLANA_PAYMENT_LIFETIME_S + RESULT_GRACE_S }
  let handedOver = false
  try {
    const failedRuns = await ledger.failedRuns(offer.network, p.payer, p.messageHash)
    if (failedRuns >= MAX_FAILED_RUNS) {
      await ledger.transition(id, 'released', { reason: REASON.failedRunsExhausted })
      return refused(
        REASON.failedRunsExhausted,
        `This Solana payment already ran ${failedRuns} times and failed each time (at most ${MAX_FAILED_RUNS}); sign a new one.`,
      )
    }
    const verifyStartedMs = Date.now()
    let verdict
    try {
      verdict = await offer.backend.verify(p.payload, req)
    } catch (e) {
      await ledger.transition(id, 'released', { reason: 'verification unavailable' })
      deps.log.warn('solana verification unavailable', { request_id: requestId, error: (e as Error).message })
      throw unavailable('verification')
    }
    if (!verdict.isValid) {
      await ledger.transition(id, 'released', { reason: verdict.invalidReason ?? 'invalid' })
      return refused(
        verdict.invalidReason ?? REASON.invalidPayment,
        verdict.invalidMessage ?? 'The Solana payment did not verify.',
      )
    }
    // The payer's other payments in flight and this one must fit in its balance (reserved -> verified).
    const held = await holdFunds(offer, id, p, BigInt(req.amount), verifyStartedMs)
    if (held !== 'ok') {
      await ledger.transition(id, 'released', { reason: held.reason })
      if (held.busy)
        throw new ServiceError(429, 'BUSY', held.message, {
          headers: { 'retry-after': String(RETRY_IN_FLIGHT_S) },
          retryable: true,
        })
      return refused(held.reason, held.message)
    }
    if (key) {
      const claimed = await offer.results.claim({ ...keepInput(h), key })
      if (claimed) {
        await ledger.transition(id, 'released', { reason: 'payment identifier already used' })
        return collect(
          claimed.request_hash !== hash
            ? { kind: 'conflict' }
            : (outcomeOf(claimed, p.payer) ?? { kind: 'pending', retryAfter: RETRY_IN_FLIGHT_S }),
        )
      }
    }
    deps.log.info('solana payment verified', { request_id: requestId, payer: p.payer, payment_id: id })
    handedOver = true
    return {
      kind: 'admitted',
      call: {
        request: s.request,
        input: s.input,
        headers: ignoredFieldsHeader(s.ignored),
        hold: svmHold(offer, h, deps),
        payer: p.payer,
      },
    }
  } finally {
    if (!handedOver) {
      const row = await Promise.resolve(ledger.get(id)).catch(() => null)
      if (row && row.state !== 'released') await releaseRow(offer, h, 'request failed before settlement', deps)
    }
  }
}
