/**
 * x402's `payment-identifier` extension (a client's idempotency key for a payment), written here in the extension's
 * own terms rather than loaded from `@x402/extensions/payment-identifier`: that module loads ajv with its 2020-12
 * vocabularies (~110 modules with the package's shared chunks) at boot for a constant declaration, a length and a
 * pattern. `test/pay/payment-id.test.ts` holds these to the package's own (declaration, extraction, format check).
 */
import type { PaymentPayload } from '@x402/core/types'
import { ServiceError } from '../../sdk'
import type { DecodedPayment } from '../types'

/** The extension's key in PaymentRequired.extensions and PaymentPayload.extensions. */
export const PAYMENT_IDENTIFIER = 'payment-identifier'
export const PAYMENT_ID_MIN_LENGTH = 16
export const PAYMENT_ID_MAX_LENGTH = 128
const PAYMENT_ID_CHARS = /^[a-zA-Z0-9_-]+$/

/** The declaration's JSON Schema (of the extension's `info`: `required`, and the client's `id`). */
const PAYMENT_ID_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    required: { type: 'boolean' },
    id: {
      type: 'string',
      minLength: PAYMENT_ID_MIN_LENGTH,
      maxLength: PAYMENT_ID_MAX_LENGTH,
      pattern: '^[a-zA-Z0-9_-]+$',
    },
  },
  required: ['required'],
}

/** The `payment-identifier` declaration for PaymentRequired.extensions (optional for clients). */
export const PAYMENT_IDENTIFIER_DECLARATION = {
  [PAYMENT_IDENTIFIER]: { info: { required: false }, schema: PAYMENT_ID_SCHEMA },
}

/** Whether `id` has the extension's format: 16–128 letters, digits, `-` and `_`. */
export function isValidPaymentId(id: unknown): id is string {
  return (
    typeof id === 'string' &&
    id.length >= PAYMENT_ID_MIN_LENGTH &&
    id.length <= PAYMENT_ID_MAX_LENGTH &&
    PAYMENT_ID_CHARS.test(id)
  )
}

/** The `info.id` string a payload's `payment-identifier` extension carries, or null (not checked here). */
export function extractPaymentIdentifier(payload: Pick<PaymentPayload, 'extensions'>): string | null {
  const ext = payload.extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown } } | undefined
  if (!ext || typeof ext !== 'object' || !ext.info || typeof ext.info !== 'object') return null
  return typeof ext.info.id === 'string' ? ext.info.id : null
}

/**
 * The client's payment identifier from a v2 payload's extensions, or null when it sent none (v1 has no
 * extensions). A malformed id is a 400. Only the format is checked (as the package's isValidPaymentId): the
 * package's full validator compiles the client-supplied JSON schema, which is not safe on untrusted input.
 */
export function paymentIdentifierOf(p: DecodedPayment): string | null {
  if (p.x402Version !== 2) return null
  const sent = (p.raw.extensions as Record<string, { info?: { id?: unknown } }> | undefined)?.[PAYMENT_IDENTIFIER]?.info
    ?.id
  const id = extractPaymentIdentifier(p.raw as unknown as PaymentPayload)
  if (id === null && sent === undefined) return null
  if (id === null || !isValidPaymentId(id)) {
    throw new ServiceError(
      400,
      'INVALID_PAYMENT_IDENTIFIER',
      `extensions["${PAYMENT_IDENTIFIER}"].info.id must be ${PAYMENT_ID_MIN_LENGTH}-${PAYMENT_ID_MAX_LENGTH} characters of letters, digits, '-' and '_'`,
    )
  }
  return id
}
