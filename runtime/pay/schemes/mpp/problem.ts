/**
 * MPP's errors: RFC 9457 problem details (`application/problem+json`) with the paymentauth.org types, on a 402 that
 * carries a fresh challenge. The body also carries this server's `code` and `request_id` (extension members), so an
 * agent reading the project's error shape finds the same fields.
 * @module pay/schemes/mpp/problem
 */
import { REASON } from '../../reasons'

export const PROBLEM_BASE = 'https://paymentauth.org/problems/'

export const PROBLEMS = {
  'payment-required': 'Payment Required',
  'malformed-credential': 'Malformed Credential',
  'invalid-challenge': 'Invalid Challenge',
  'payment-expired': 'Payment Expired',
  'verification-failed': 'Verification Failed',
  'invalid-payload': 'Invalid Payload',
  'payment-insufficient': 'Payment Insufficient',
  'method-unsupported': 'Method Unsupported',
} as const
export type ProblemType = keyof typeof PROBLEMS

/** A refused MPP credential: its problem type and what was wrong, in words. */
export interface Problem {
  type: ProblemType
  detail: string
  /** The x402 reason behind it (the gate's word), when the shared engine refused it. */
  reason?: string
  /** The echoed challenge id, when it could be read. */
  challengeId?: string
}

/** The problem type of a refusal by the shared EIP-3009 engine (an x402 reason). */
export function problemOfReason(reason: string): ProblemType {
  switch (reason) {
    case REASON.authorizationAlreadyUsed:
    case REASON.nonceAlreadyUsed:
    case REASON.failedRunsExhausted:
      return 'invalid-challenge'
    case REASON.validBefore:
    case REASON.validAfter:
      return 'payment-expired'
    case REASON.valueMismatch:
    case REASON.insufficientBalance:
    case REASON.evmInsufficientBalance:
      return 'payment-insufficient'
    case REASON.invalidPayload:
      return 'invalid-payload'
    default:
      return 'verification-failed'
  }
}

/** The RFC 9457 body of a problem (status 402). */
export function problemBody(p: Problem, requestId: string, status = 402) {
  return {
    type: `${PROBLEM_BASE}${p.type}`,
    title: PROBLEMS[p.type],
    status,
    detail: p.detail,
    ...(p.challengeId ? { challengeId: p.challengeId } : {}),
    code: `MPP_${p.type.toUpperCase().replaceAll('-', '_')}`,
    ...(p.reason ? { reason: p.reason } : {}),
    request_id: requestId,
  }
}
