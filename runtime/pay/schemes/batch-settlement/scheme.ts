/**
 * The `batch-settlement` scheme behind the paid call's doors (runtime/pay/README.md), beside `exact`
 * (schemes/exact/scheme.ts), registered as the plugin `channelScheme`: admission checks the cumulative voucher (locally on a kept channel) and takes the channel's
 * lease; the hold commits the charge after a successful handler (durably, with the spec's PAYMENT-RESPONSE) or
 * frees the channel uncharged. Built at boot by `channelScheme` (./serve.ts) when this server facilitates itself.
 * @module pay/schemes/batch-settlement/scheme
 */
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { ignoredFieldsHeader } from '../../../input/ignored-header'
import { ServiceError } from '../../../sdk'
import type {
  Admission,
  PaidCallDeps,
  PaidRequest,
  PaymentHold,
  PresentedPayment,
  SchemePlugin,
  SchemeRequest,
} from '../../server/doors'
import type { PaymentRequirements as ExactRequirements } from '../../types'
import { requestHash } from '../../server/request-hash'
import { receiptOf, type Purchase } from '../../server/receipts'
import { REASON } from '../../reasons'
import { atomicToUsd } from '../../../catalog/amount'
import { b64json } from '../../wire'
import { refundChannelPayment } from './refund'
import {
  admitChannelPayment,
  commitChannelCharge,
  correctiveRequirements,
  releaseChannel,
  type ChannelDoors,
  type ChannelRefusal,
  type ChannelTicket,
} from './doors'

/** The terms of this server's channels, as /services and llms.txt publish them. */
export interface ChannelTerms {
  /** The smallest deposit (atomic units), the 402's `extra.minDeposit`. */
  min_deposit: string
  /** The payer's timed-withdrawal delay (s), `extra.withdrawDelay`. */
  withdraw_delay_s: number
  /** The address bound into every channel as `receiverAuthorizer`. */
  receiver_authorizer: string
}

/** Each network's channel terms (network → terms), only networks offering channels, in NETWORKS order. */
export type NetworkChannelTerms = Record<string, ChannelTerms>

/**
 * What the paid call needs of the channels, on every network that offers them (NETWORKS): the 402's
 * `batch-settlement` entries and each network's doors.
 */
export interface ChannelOffer {
  /** The `batch-settlement` entry beside an `exact` one (same network, amount, asset, payTo); none where its network has no channels. */
  offer(exact: ExactRequirements): PaymentRequirements | undefined
  /** The doors of a network's channels (none: that network has no channels). */
  doorsOf(network: string): ChannelDoors | undefined
  /** The channel terms of each network offering channels, in NETWORKS order (/services, .well-known, OpenAPI, llms.txt). */
  terms: NetworkChannelTerms
  /**
   * Grows when a network's channels are added while running (a remote facilitator that answered /supported late):
   * what is built from the offer (the 402s, the published documents) is built again.
   */
  version?: number
}

/** The v2 payment as decoded once by the server, when it names `batch-settlement` (`accepted.scheme`), else null. */
export function channelPaymentOf(p: PresentedPayment): PaymentPayload | null {
  const raw = p.decoded as PaymentPayload | null
  return p.version === 2 && raw?.x402Version === 2 && raw.accepted?.scheme === 'batch-settlement' ? raw : null
}

/**
 * The scheme as the resource server's plugin: it claims the payments that name `batch-settlement`, offers one entry
 * beside each `exact` entry of a network with channels, and serves the cooperative refund.
 */
export function channelScheme(ch: ChannelOffer): SchemePlugin {
  return {
    name: 'batch-settlement',
    claims: (p) => channelPaymentOf(p) !== null,
    admit: (s, deps) => admitChannel(ch, channelPaymentOf(s)!, s, deps),
    offers: (base, corrective) =>
      base.flatMap((r) => (corrective?.network === r.network ? corrective : ch.offer(r)) ?? []),
    get version() {
      return ch.version ?? 0
    },
    refund: (p, r, accepts, deps) => refundChannel(ch, channelPaymentOf(p)!, r, accepts, deps),
  }
}

/**
 * What a voucher-paid answer costs (issue #26 "pay for tokens used"): the voucher's ceiling (the tier's price), or,
 * for a tiered service with `max_tokens` (the model tiers), the share of it that the answer's `tokens_used` took of
 * `max_tokens`, rounded up to the atomic unit, never below a tenth of the price (the floor) nor above the price. An
 * answer without a usable `tokens_used` pays the price. `exact` always pays the price.
 */
export function chargeFor(ceiling: bigint, maxTokens: number, body: string): bigint {
  if (!(maxTokens > 0)) return ceiling
  let tokens: unknown
  try {
    tokens = (JSON.parse(body) as { tokens_used?: unknown } | null)?.tokens_used
  } catch {
    return ceiling
  }
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0) return ceiling
  const max = BigInt(maxTokens)
  const used = BigInt(Math.min(Math.ceil(tokens), maxTokens))
  const share = (ceiling * used + max - 1n) / max
  const floor = (ceiling + 9n) / 10n
  return share < floor ? floor : share > ceiling ? ceiling : share
}

/** The signed receipt of a committed charge (docs/receipts.md), in the settle response's `extensions`. */
async function withReceipt(
  response: Record<string, unknown>,
  t: ChannelTicket,
  requirements: PaymentRequirements,
  charged: bigint,
  p: Purchase,
  deps: PaidCallDeps,
): Promise<void> {
  const extensions = await receiptOf(deps, p, {
    scheme: 'batch-settlement',
    network: t.network,
    asset: requirements.asset,
    amount: charged.toString(),
    payTo: requirements.payTo,
    payer: t.payer,
    transaction: String(response.transaction ?? ''),
    channel: { id: t.channelId, cumulative: (t.base + charged).toString() },
  })
  if (extensions) response.extensions = extensions
}

/** The hold of an admitted voucher: the channel's lease until the charge is committed or the channel freed. */
function channelHold(
  doors: ChannelDoors,
  t: ChannelTicket,
  requirements: PaymentRequirements,
  maxTokens: number,
  purchase: Purchase,
  deps: PaidCallDeps,
): PaymentHold {
  const { log } = deps
  let leased = true
  let kept = ''
  const free = async () => {
    if (!leased) return
    leased = false
    await releaseChannel(doors, t)
  }
  return {
    // The voucher and its charge are made durable together by `settle` (one fsync'd transaction, before the answer).
    keep: async (body) => {
      kept = body
    },
    async settle() {
      let c: Awaited<ReturnType<typeof commitChannelCharge>>
      const charged = chargeFor(t.ceiling, maxTokens, kept)
      try {
        c = await commitChannelCharge(doors, t, charged, purchase.service)
        leased = false // the commit releases the lease, charged or not
      } catch (e) {
        await free().catch(() => {})
        throw e
      }
      if (!c.ok) return { ok: false, reason: c.reason, message: c.message, pending: false, headers: {} }
      const response = c.response as unknown as Record<string, unknown>
      await withReceipt(response, t, requirements, charged, purchase, deps)
      const header = b64json(response)
      // Pay for tokens used: the answer's body says what it cost (a utility's cost is its price, said by the 402).
      if (!(maxTokens > 0)) return { ok: true, headerName: 'payment-response', header, response }
      const field = { atomic: charged.toString(), usd: atomicToUsd(charged) }
      return { ok: true, headerName: 'payment-response', header, response, charged: field }
    },
    failed: () => free(),
    release: (why) =>
      free().catch((e) =>
        log.warn('channel release failed; its lease expires', {
          request_id: purchase.requestId,
          why,
          error: String(e),
        }),
      ),
  }
}

/** A channel backend that throws (RPC, database): a retryable 503, nothing charged. */
async function unavailableOnError<T>(run: () => Promise<T>, r: PaidRequest, deps: PaidCallDeps): Promise<T> {
  try {
    return await run()
  } catch (e) {
    deps.log.warn('payment channel door failed', { request_id: r.requestId, service: r.svc.slug, error: String(e) })
    throw new ServiceError(
      503,
      'PAYMENT_UNAVAILABLE',
      'Payment channels are unavailable right now; nothing was charged.',
      {
        headers: { 'retry-after': '5' },
        retryable: true,
      },
    )
  }
}

type Refused = Extract<Admission, { kind: 'refused' }>

/**
 * A channel refusal as the refused admission: counted against the client like exact's refusals (429 past
 * INVALID_PAYMENT_LIMIT a minute), except the protocol's own flow (a busy channel, the corrective 402); a cumulative
 * mismatch carries the corrective entry.
 */
async function refusedFor(
  a: ChannelRefusal,
  requirements: PaymentRequirements,
  r: PaidRequest,
  deps: PaidCallDeps,
): Promise<Refused> {
  if (a.reason !== REASON.channelBusy && a.reason !== REASON.channelCumulativeMismatch) await counted(r, deps)
  const corrective = a.channelState ? correctiveRequirements(requirements, a) : undefined
  return { kind: 'refused', reason: a.reason, message: a.message, headers: {}, ...(corrective ? { corrective } : {}) }
}

/** One refusal counted against the client (the refusal throttle). */
const counted = (r: PaidRequest, deps: PaidCallDeps) =>
  Promise.resolve(deps.refusals.hit(r.client)).catch((e) =>
    deps.log.warn('refusal throttle unavailable', { error: (e as Error).message }),
  )

/**
 * The offered `batch-settlement` entry and the doors of the network a payment names, or the refusal when that network
 * offers no channels (nothing is held, no RPC).
 */
function offeredFor(
  ch: ChannelOffer,
  payment: PaymentPayload,
  accepts: ExactRequirements[],
): { requirements: PaymentRequirements; doors: ChannelDoors } | Refused {
  const exact = accepts.find((r) => r.network === payment.accepted?.network)
  const requirements = exact && ch.offer(exact)
  const doors = requirements && ch.doorsOf(requirements.network)
  if (requirements && doors) return { requirements, doors }
  return {
    kind: 'refused',
    reason: REASON.channelNetworkMismatch,
    message: `No payment channels on network ${String(payment.accepted?.network).slice(0, 40)}.`,
    headers: {},
  }
}

/**
 * A cooperative refund (GET on a paid route with a refund payload; no handler runs): the settle response for
 * PAYMENT-RESPONSE, or the refusal as a refused admission (a cumulative mismatch with its corrective entry).
 */
export async function refundChannel(
  ch: ChannelOffer,
  payment: PaymentPayload,
  r: PaidRequest,
  accepts: ExactRequirements[],
  deps: PaidCallDeps,
): Promise<{ ok: true; response: Record<string, unknown> } | Refused> {
  const of = offeredFor(ch, payment, accepts)
  if ('kind' in of) return counted(r, deps).then(() => of)
  const { requirements, doors } = of
  const out = await unavailableOnError(() => refundChannelPayment(doors, payment, requirements), r, deps)
  if (!out.ok) return refusedFor(out, requirements, r, deps)
  deps.log.info('channel refunded', {
    request_id: r.requestId,
    amount: out.response.amount,
    tx: out.response.transaction,
  })
  return { ok: true, response: out.response as unknown as Record<string, unknown> }
}

/**
 * The first door for `batch-settlement`: the payment against the offered entry of its network, the channel's lease
 * taken, a deposit landed on chain. A refusal is a 402 with the spec's reason; a cumulative mismatch carries the
 * corrective `channelState` (and `voucherState`) in the offered entry's `extra`.
 */
export async function admitChannel(
  ch: ChannelOffer,
  payment: PaymentPayload,
  s: SchemeRequest,
  deps: PaidCallDeps,
): Promise<Admission> {
  const { svc, tier, requestId } = s.request
  const of = offeredFor(ch, payment, s.accepts)
  if ('kind' in of) return counted(s.request, deps).then(() => of)
  const { requirements, doors } = of
  const a = await unavailableOnError(() => admitChannelPayment(doors, payment, requirements), s.request, deps)
  if (!a.ok) return refusedFor(a, requirements, s.request, deps)
  const maxTokens = svc.manifest.kind === 'tiered' ? (svc.pricing[s.request.tier]?.max_tokens ?? 0) : 0
  const purchase: Purchase = {
    resourceUrl: s.request.resource,
    service: svc.slug,
    tier,
    requestHash: requestHash(svc.slug, tier, s.request.raw),
    requestId,
  }
  const hold = channelHold(doors, a.ticket, requirements, maxTokens, purchase, deps)
  return {
    kind: 'admitted',
    call: {
      request: s.request,
      input: s.input,
      headers: ignoredFieldsHeader(s.ignored),
      hold,
      payer: a.ticket.payer,
    },
  }
}
