/**
 * MPP's MCP transport (draft-payment-transport-mcp-00, as mppx's MCP client speaks it) beside x402's: the credential
 * in `_meta["org.paymentauth/credential"]` (an object) goes to the pipeline as the `Authorization: Payment` header;
 * the receipt comes back in `_meta["org.paymentauth/receipt"]`; the 402's challenges (its `WWW-Authenticate:
 * Payment` values) are `{httpStatus: 402, challenges}` in a tool result's `_meta["org.paymentauth/payment-required"]`
 * beside x402's PaymentRequired, and, when an MPP credential was refused, a JSON-RPC error (-32042, or -32043 when
 * verification failed, -32602 for a malformed credential) whose `data` carries them with the problem details and the
 * x402 PaymentRequired.
 * @module mcp/mpp
 */
import { credentialHeader as headerOf, type MppChallenge, parseChallenges } from '../pay/schemes/mpp/wire'

export const MPP_CREDENTIAL_META = 'org.paymentauth/credential'
export const MPP_RECEIPT_META = 'org.paymentauth/receipt'
export const MPP_REQUIRED_META = 'org.paymentauth/payment-required'
export const PAYMENT_REQUIRED_CODE = -32042
export const VERIFICATION_FAILED_CODE = -32043
export const INVALID_PARAMS_CODE = -32602

/** A JSON-RPC error a tool call answers with (routes.ts turns it into the SDK's McpError). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message)
  }
}

/**
 * The `Authorization` header of an MCP credential object, or a value that the MPP scheme refuses as malformed (so
 * the caller gets MPP's problem, not an unpaid 402).
 */
export function credentialHeader(credential: unknown): string {
  try {
    return headerOf(credential)
  } catch {
    return 'Payment malformed'
  }
}

/** The MPP challenges of a 402 (none when it carries no `WWW-Authenticate: Payment`). */
export function challengesOf(res: Response): MppChallenge[] {
  const header = res.headers.get('www-authenticate')
  return header ? parseChallenges(header) : []
}

/** The JSON-RPC error code of an MPP problem type (paymentauth.org). */
export function codeOfProblem(type: string | undefined): number {
  const t = type?.replace('https://paymentauth.org/problems/', '')
  if (t === 'malformed-credential' || t === 'invalid-payload') return INVALID_PARAMS_CODE
  if (t === 'verification-failed' || t === 'payment-insufficient') return VERIFICATION_FAILED_CODE
  return PAYMENT_REQUIRED_CODE
}

/** The MPP receipt of a paid answer (its `Payment-Receipt` header), or undefined. */
export function receiptOf(res: Response): Record<string, unknown> | undefined {
  const v = res.headers.get('payment-receipt')
  if (!v) return undefined
  try {
    return JSON.parse(Buffer.from(v, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}
