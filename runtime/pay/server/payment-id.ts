import {
  declarePaymentIdentifierExtension,
  extractPaymentIdentifier,
  isValidPaymentId,
  PAYMENT_IDENTIFIER,
  PAYMENT_ID_MAX_LENGTH,
  PAYMENT_ID_MIN_LENGTH,
} from '@x402/extensions/payment-identifier'
import type { PaymentPayload } from '@x402/core/types'
import { ServiceError } from '../../sdk'
import type { DecodedPayment } from '../types'

/** The `payment-identifier` declaration for PaymentRequired.extensions (optional for clients). */
export const PAYMENT_IDENTIFIER_DECLARATION = { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) }

/**
 * The client's payment identifier from a v2 payload's extensions, or null when it sent none (v1 has no
 * extensions). A malformed id is a 400. Only the format is checked (the package's isValidPaymentId): the
 * package's full validator compiles the client-supplied JSON schema, which is not safe on untrusted input.
 */
export function paymentIdentifierOf(p: DecodedPayment): string | null {
  if (p.x402Version !== 2) return null
  const sent = (p.raw.extensions as Record<string, { info?: { id?: unknown } }> | undefined)?.[PAYMENT_IDENTIFIER]?.info
    ?.id
  const id = extractPaymentIdentifier(p.raw as unknown as PaymentPayload, false)
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
