import { Elysia } from 'elysia'
import { parseJson, readBody, requireJson } from '../../http/body'
import { errorResponse, json, newRequestId, PREFLIGHT_HEADERS } from '../../http/respond'
import { asServiceError } from '../../http/unexpected'
import { ServiceError, type Logger } from '../../sdk'
import { verifyReceipt, type ReceiptIssuer } from './receipts'

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The receipt in a verify request: `{ receipt }` (object or JWS string) or `{ payment_response }` (the header). */
function receiptOf(body: unknown): unknown {
  if (!isRecord(body)) return undefined
  if (body.receipt !== undefined) return body.receipt
  if (typeof body.payment_response === 'string') {
    try {
      const settle = JSON.parse(Buffer.from(body.payment_response, 'base64').toString('utf8'))
      return settle?.extensions?.['offer-receipt']?.info?.receipt
    } catch {
      return undefined
    }
  }
  return undefined
}

/**
 * GET /.well-known/did.json: this server's did:web document (the receipt key, `assertionMethod`).
 * POST /receipts/verify: checks a receipt against that key with the offer-receipt extension's verifier.
 */
export function receiptRoutes(receipts: ReceiptIssuer, bodyLimitBytes: number, bodyTimeoutMs: number, log: Logger) {
  const didDocument = JSON.stringify(receipts.didDocument)
  return new Elysia({ name: 'receipts' })
    .get(
      '/.well-known/did.json',
      () =>
        new Response(didDocument, {
          headers: { 'content-type': 'application/did+json', ...PREFLIGHT_HEADERS, 'cache-control': 'max-age=300' },
        }),
      { detail: { hide: true } },
    )
    .post(
      '/receipts/verify',
      async ({ request }) => {
        const id = newRequestId()
        try {
          requireJson(request)
          const receipt = receiptOf(parseJson(await readBody(request, bodyLimitBytes, bodyTimeoutMs)))
          if (receipt === undefined)
            throw new ServiceError(
              422,
              'INVALID_INPUT',
              'Send { "receipt": <signed receipt or JWS> } or { "payment_response": <PAYMENT-RESPONSE header> }.',
              {
                details: [{ path: '/receipt', message: 'required' }],
              },
            )
          const checked = await verifyReceipt(receipt, receipts.publicJwk)
          return json({ ...checked, issuer: receipts.kid }, 200, id)
        } catch (e) {
          return errorResponse(asServiceError(e, log, { request_id: id }, 'receipt verification failed'), id)
        }
      },
      { parse: 'none', detail: { hide: true } },
    )
}
