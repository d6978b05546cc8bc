/**
 * x402 on the wire: decoding a PAYMENT-SIGNATURE (v2) / X-PAYMENT (v1) header, encoding a header (base64 JSON), and
 * the v1 form of requirements. Shared by the resource server and the facilitators.
 * @module pay/wire
 */
import type { DecodedPayment, ExactPayload, PaymentRequirements } from './types'
import { v1NetworkOf } from './networks'
import { REASON, type PaymentReason } from './reasons'

/**
 * A payment that is refused with a reason (402, never a 500): `reason` is one of REASON (pay/reasons.ts), or a
 * facilitator's own string passed through.
 */
export class PaymentRefused extends Error {
  constructor(
    readonly reason: PaymentReason | (string & {}),
    message?: string,
    readonly status = 402,
  ) {
    super(message ?? reason)
  }
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/
const HEX = (bytes: number) => new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`)
const UINT = /^\d{1,78}$/
const MAX_HEADER = 16_384

function exactPayload(p: unknown): ExactPayload {
  const o = p as ExactPayload
  const a = o?.authorization
  if (!o || typeof o.signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(o.signature) || !a)
    throw new PaymentRefused(REASON.invalidPayload, 'payload must have signature and authorization')
  if (!HEX(20).test(a.from ?? '') || !HEX(20).test(a.to ?? ''))
    throw new PaymentRefused(REASON.invalidPayload, 'authorization.from and .to must be addresses')
  for (const k of ['value', 'validAfter', 'validBefore'] as const)
    if (typeof a[k] !== 'string' || !UINT.test(a[k]))
      throw new PaymentRefused(REASON.invalidPayload, `authorization.${k} must be an unsigned integer string`)
  if (!HEX(32).test(a.nonce ?? ''))
    throw new PaymentRefused(REASON.invalidPayload, 'authorization.nonce must be 32 bytes of hex')
  return o
}

/**
 * Decodes a `PAYMENT-SIGNATURE` (v2) or `X-PAYMENT` (v1) header. Bad base64, bad JSON, a wrong shape or an
 * unknown scheme throws PaymentRefused with the reason.
 */
export function decodePayment(header: string, expectVersion: 1 | 2): DecodedPayment {
  const text = header.trim()
  if (text.length > MAX_HEADER) throw new PaymentRefused(REASON.invalidPayload, 'payment header too large')
  if (!B64.test(text) || text.length % 4 !== 0)
    throw new PaymentRefused(REASON.invalidPayload, 'payment header is not standard base64')
  let raw: Record<string, unknown>
  try {
    raw = JSON.parse(Buffer.from(text, 'base64').toString('utf8'))
  } catch {
    throw new PaymentRefused(REASON.invalidPayload, 'payment header is not base64 of JSON')
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new PaymentRefused(REASON.invalidPayload, 'payment header must hold a JSON object')
  if (raw.x402Version !== expectVersion)
    throw new PaymentRefused(
      'invalid_x402_version',
      `x402Version must be ${expectVersion} in ${expectVersion === 2 ? 'PAYMENT-SIGNATURE' : 'X-PAYMENT'}`,
    )
  if (expectVersion === 2) {
    const accepted = raw.accepted as Record<string, unknown> | undefined
    if (!accepted || typeof accepted !== 'object')
      throw new PaymentRefused(REASON.invalidPayload, 'accepted is required')
    if (accepted.scheme !== 'exact')
      throw new PaymentRefused(REASON.unsupportedScheme, `scheme ${String(accepted.scheme)} is not supported`)
    return {
      x402Version: 2,
      accepted,
      scheme: 'exact',
      network: String(accepted.network),
      payload: exactPayload(raw.payload),
      raw,
    }
  }
  if (raw.scheme !== 'exact')
    throw new PaymentRefused(REASON.unsupportedScheme, `scheme ${String(raw.scheme)} is not supported`)
  return { x402Version: 1, scheme: 'exact', network: String(raw.network), payload: exactPayload(raw.payload), raw }
}

/** The v1 form of the same requirements, for legacy x402-fetch 1.x clients that read the 402 body. */
export function toV1(req: PaymentRequirements, resource: string, description: string, outputSchema?: unknown) {
  return {
    scheme: req.scheme,
    network: v1NetworkOf(req.network),
    maxAmountRequired: req.amount,
    resource,
    description,
    mimeType: 'application/json',
    payTo: req.payTo,
    maxTimeoutSeconds: req.maxTimeoutSeconds,
    asset: req.asset,
    ...(outputSchema ? { outputSchema } : {}),
    extra: { name: req.extra.name, version: req.extra.version },
  }
}

/** Standard base64 of UTF-8 JSON (what x402 headers carry). */
export const b64json = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64')

/** The JSON object a base64 header carries (`b64json`'s inverse), or undefined when absent or not one. */
export function decodeB64Json(v: string | null): Record<string, unknown> | undefined {
  if (!v) return undefined
  try {
    const x = JSON.parse(Buffer.from(v, 'base64').toString('utf8'))
    return x !== null && typeof x === 'object' && !Array.isArray(x) ? x : undefined
  } catch {
    return undefined
  }
}
