import type { Config, NetworkSetting } from '../../config'
import type { CatalogService } from '../../catalog/index'
import type { TierName } from '../../sdk'
import type { PaymentRequirements as X402Requirements } from '@x402/core/types'
import type { DecodedPayment, PaymentRequirements } from '../types'
import { headerBazaarForms, type HeaderForm } from '../../catalog/bazaar'
import { metadataOf } from '../../catalog/metadata'
import { PAYMENT_IDENTIFIER_DECLARATION } from './payment-id'
import { networkOfV1, V1_NETWORKS } from '../networks'
import { toV1 } from '../wire'

/**
 * Our requirements for one service and tier: deterministic, so the client's echo can be compared exactly.
 * Only x402 v2 PaymentRequirements fields (no v1 mimeType/resource/description: those live in `resource`).
 */
export function requirementsFor(
  cfg: Config,
  svc: CatalogService,
  tier: TierName,
  payTo: string,
  net: Pick<NetworkSetting, 'network' | 'asset' | 'assetName' | 'assetVersion'> = cfg.networks[0],
): PaymentRequirements {
  return {
    scheme: 'exact',
    network: net.network,
    amount: svc.amounts[tier]!,
    asset: net.asset,
    payTo,
    maxTimeoutSeconds: cfg.maxTimeoutSeconds,
    extra: { name: net.assetName, version: net.assetVersion },
  }
}

/** The requirements of every accepted network (NETWORKS), the first network's first; one entry for one network. */
export function acceptsFor(cfg: Config, svc: CatalogService, tier: TierName, payTo: string): PaymentRequirements[] {
  return cfg.networks?.length > 1
    ? cfg.networks.map((n) => requirementsFor(cfg, svc, tier, n.payTo || payTo, n))
    : [requirementsFor(cfg, svc, tier, payTo)]
}

/**
 * The accepts entry of the network a payment names (v2 `accepted.network`, v1 `network`), or the first one: an
 * unknown network then fails the cheap checks with `invalid_network`, before any RPC.
 */
export function requirementsOfPayment(accepts: PaymentRequirements[], p?: DecodedPayment): PaymentRequirements {
  if (accepts.length === 1 || !p) return accepts[0]
  const network = p.x402Version === 2 ? p.network : networkOfV1(p.network)
  return accepts.find((r) => r.network === network) ?? accepts[0]
}

/** What the 402 body says about input checks: a wrong body is refused unpaid, so nobody signs for it. */
export const BODY_CHECKED_FIRST =
  'The body is checked before payment: send the body you mean to pay for and an invalid one is answered 400/415/422 (saying what to send) without a 402; an empty body or {} only reads the price.'

/** The registered schemes' entries after the `exact` ones (runtime/pay/server/schemes.ts `offers`). */
export type SchemeOffers = (base: PaymentRequirements[]) => X402Requirements[]

/**
 * The most bytes the `PAYMENT-REQUIRED` header's value may take (docs/api.md, "The 402's size"). With the 402's
 * other headers (about 450 bytes) an answer's head stays near 3 KB: stock nginx reads the head of an upstream's
 * answer into one 4 KB buffer (`proxy_buffer_size`) and answers 502 when it is larger, and the rest of that buffer is
 * left for MPP's `WWW-Authenticate: Payment` challenge (about 500 bytes) beside the x402 one.
 */
export const PAYMENT_REQUIRED_BUDGET = 3_000

/** The resource description in the header: the first sentence of `name: description`, at most this long. */
export const HEADER_DESCRIPTION_CHARS = 120

/** `text`'s first sentence, cut at a word within `max` characters (with `...`) when longer. */
function shortDescription(text: string, max = HEADER_DESCRIPTION_CHARS): string {
  const first = /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text
  if (first.length <= max) return first
  const cut = first.slice(0, max - 3)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:(-]+$/, '')}...`
}

/** The length in base64 of `bytes` bytes. */
const b64Length = (bytes: number) => 4 * Math.ceil(bytes / 3)

/** A header form's `extensions` (its Bazaar form and the payment-identifier declaration) as JSON, with its length. */
const extensionsJson = new WeakMap<HeaderForm, { json: string; bytes: number }>()
function extensionsOf(form: HeaderForm) {
  let e = extensionsJson.get(form)
  if (!e) {
    const json = JSON.stringify({ ...form.extension, ...PAYMENT_IDENTIFIER_DECLARATION })
    extensionsJson.set(form, (e = { json, bytes: Buffer.byteLength(json) }))
  }
  return e
}

/**
 * The 402 challenge: `PAYMENT-REQUIRED` header (v2 PaymentRequired with the bazaar extension) and a body with
 * the spec §2.4 fields plus a v1 `accepts` array. `reason` says why an attempted payment was refused. The v2 `accepts`
 * lists every `exact` entry first, then what the other registered schemes offer (`offers`; v1 stays exact).
 * `accepts` (returned) is the exact entries only: what the `exact` admission checks a payment against.
 *
 * The header stays within PAYMENT_REQUIRED_BUDGET: its resource description is the first sentence, and its Bazaar
 * extension the richest form of runtime/catalog/bazaar.ts that fits beside everything else this 402 says (its
 * reason, a corrective entry, every network's entries). The body carries what the header leaves out: the whole
 * description (v1 `accepts[].description`) and, in the unpaid 402, the full Bazaar extension with the input schema's
 * descriptions and aliases (`extensions.bazaar`, the same path as in the header).
 */
export function challenge(
  cfg: Config,
  svc: CatalogService,
  tier: TierName,
  payTo: string,
  resource: string,
  reason?: string,
  offers?: SchemeOffers,
) {
  const accepts = acceptsFor(cfg, svc, tier, payTo)
  const req = accepts[0]
  const offered: Array<PaymentRequirements | X402Requirements> = offers ? [...accepts, ...offers(accepts)] : accepts
  const description = `${svc.manifest.name}: ${svc.manifest.description}`.slice(0, 500)
  const baseWith = (chars: number) => ({
    x402Version: 2,
    // A remote facilitator's own reason passes through: cut to a length that cannot crowd out the rest.
    ...(reason ? { error: reason.slice(0, 128) } : {}),
    resource: {
      url: resource,
      description: shortDescription(description, chars),
      mimeType: 'application/json',
      ...metadataOf(cfg, svc),
    },
    accepts: offered,
  })
  const forms = headerBazaarForms(svc)
  // The header's JSON is the rest and then `extensions` (the last key): its size for each form is a sum, so the
  // choice costs no encoding (a query string the cache has not seen builds a 402 again). When even the smallest
  // form does not fit (many schemes offered), the header's description gives way, down to its first words.
  let base = baseWith(HEADER_DESCRIPTION_CHARS)
  let head = ''
  let form: HeaderForm | undefined
  for (const chars of [HEADER_DESCRIPTION_CHARS, HEADER_DESCRIPTION_CHARS / 2, HEADER_DESCRIPTION_CHARS / 4]) {
    base = baseWith(chars)
    head = `${JSON.stringify(base).slice(0, -1)},"extensions":`
    const fixed = Buffer.byteLength(head) + 1
    form = forms.find((f) => b64Length(fixed + extensionsOf(f).bytes) <= PAYMENT_REQUIRED_BUDGET)
    if (form) break
  }
  form ??= forms.at(-1)!
  const header = `${head}${extensionsOf(form).json}}`
  const paymentRequired = { ...base, extensions: { ...form.extension, ...PAYMENT_IDENTIFIER_DECLARATION } }
  const body = {
    error: 'Payment Required',
    ...(reason ? { reason } : {}),
    price: String(svc.pricing[tier]!.price_usd),
    currency: 'USDC',
    network: cfg.networks[0].network,
    wallet: payTo,
    paymentMethods: ['x402'],
    x402: { x402Version: 2, scheme: 'exact', mimeType: 'application/json' },
    x402Version: 1,
    // v1 clients name networks ('base'): with several networks, those without a v1 name are left out here.
    accepts: (accepts.length > 1 ? accepts.filter((r) => V1_NETWORKS[r.network]) : accepts).map((r) =>
      toV1(r, resource, description),
    ),
    service: svc.slug,
    tier,
    validation: BODY_CHECKED_FIRST,
    // The unpaid 402 (not a refusal, which is about a payment): the full Bazaar extension, of which the header
    // carries a smaller form, with the input schema's every description and alias.
    ...(reason ? {} : { extensions: { ...svc.bazaar } }),
  }
  return { header: Buffer.from(header).toString('base64'), body, paymentRequired, requirements: req, accepts }
}
