import type { ErrorCode } from '../sdk'
import { decodeB64Json } from '../pay/wire'
import { challengesOf, codeOfProblem, MPP_RECEIPT_META, MPP_REQUIRED_META, receiptOf, RpcError } from './mpp'
/**
 * HTTP answers of the pipeline as MCP tool results (x402 MCP transport, specs/transports-v2/mcp.md):
 * 200 -> the result with the SettleResponse in `_meta["x402/payment-response"]`; 402 -> isError with the v2
 * PaymentRequired (plus the spec's `x402/error` wrapper of it) as structuredContent and, the same JSON, as
 * content[0].text; any other status -> isError with the HTTP error body. MPP beside it (./mpp.ts): the receipt in
 * `_meta["org.paymentauth/receipt"]`, the challenges in `_meta["org.paymentauth/payment-required"]`, and a refused
 * MPP credential as a JSON-RPC error (-32042/-32043) carrying both protocols' challenges.
 */
export const PAYMENT_META = 'x402/payment'
export const PAYMENT_RESPONSE_META = 'x402/payment-response'
export const ERROR_KEY = 'x402/error'

export interface ToolResult {
  [key: string]: unknown
  content: Array<{ type: 'text'; text: string }>
  structuredContent?: Record<string, unknown>
  isError?: boolean
  _meta?: Record<string, unknown>
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A successful or failed tool result carrying one JSON object both as text and as structuredContent. */
export function objectResult(value: unknown, isError = false, meta?: Record<string, unknown>): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(isRecord(value) ? { structuredContent: value } : {}),
    ...(isError ? { isError: true } : {}),
    ...(meta ? { _meta: meta } : {}),
  }
}

/**
 * The tool result of one pipeline Response (the body is read here). `mpp`: the call carried an MPP credential, so a
 * 402 is MPP's JSON-RPC error (thrown as RpcError).
 */
export async function toToolResult(res: Response, mpp = false): Promise<ToolResult> {
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const receipt = decodeB64Json(res.headers.get('payment-response'))
  if (res.status === 200) {
    const mppReceipt = receiptOf(res)
    return {
      content: [{ type: 'text', text }],
      ...(isRecord(body) ? { structuredContent: body } : {}),
      ...(receipt ? { _meta: { [PAYMENT_RESPONSE_META]: receipt } } : {}),
      ...(mppReceipt ? { _meta: { [MPP_RECEIPT_META]: mppReceipt } } : {}),
    }
  }
  if (res.status === 402) {
    const required = decodeB64Json(res.headers.get('payment-required'))
    const challenges = challengesOf(res)
    const problem =
      isRecord(body) && typeof body.type === 'string' && body.type.includes('paymentauth.org') ? body : undefined
    const mppRequired = challenges.length ? { httpStatus: 402, challenges, ...(problem ? { problem } : {}) } : undefined
    if (mpp && mppRequired) {
      const message = typeof problem?.detail === 'string' ? problem.detail : 'Payment required'
      throw new RpcError(codeOfProblem(problem?.type as string | undefined), message, {
        ...mppRequired,
        ...(required ? { [ERROR_KEY]: required } : {}),
      })
    }
    if (required) {
      const message = isRecord(body) && typeof body.message === 'string' ? body.message : undefined
      const error =
        typeof required.error === 'string'
          ? required.error
          : 'Payment required: sign one of `accepts` and repeat the call with the PaymentPayload in _meta["x402/payment"].'
      const core = { x402Version: required.x402Version, error, resource: required.resource, accepts: required.accepts }
      const paymentRequired: Record<string, unknown> = {
        ...required,
        error,
        ...(message ? { message } : {}),
        // A failed settlement also says so in the structured answer (the result itself is withheld).
        ...(receipt ? { [PAYMENT_RESPONSE_META]: receipt } : {}),
        // The spec's wrapper too, so clients that only read `x402/error` (in structuredContent or in
        // content[0].text, e.g. @x402/mcp's client) find the same requirements.
        [ERROR_KEY]: { code: 402, message: message ?? error, data: core },
      }
      // `_meta["x402/error"]` is where Cloudflare's agents x402 client looks.
      return objectResult(paymentRequired, true, {
        [ERROR_KEY]: core,
        ...(receipt ? { [PAYMENT_RESPONSE_META]: receipt } : {}),
        ...(mppRequired ? { [MPP_REQUIRED_META]: mppRequired } : {}),
      })
    }
  }
  const retryAfter = res.headers.get('retry-after')
  if (isRecord(body)) return objectResult(body, true, retryAfter ? { 'retry-after': Number(retryAfter) } : undefined)
  return objectResult(
    {
      error: {
        code: 'INTERNAL' satisfies ErrorCode,
        message: `Unexpected answer (HTTP ${res.status}); nothing was charged.`,
      },
    },
    true,
  )
}
