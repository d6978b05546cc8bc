import type { CatalogService } from '../catalog/index'
import type { QuotaStore } from '../db/store'
import { serveDemo } from '../call/demo'
import { newRequestId } from '../http/respond'
import { b64json } from '../pay/wire'
import { servePaid, type PipelineDeps } from '../call/pipeline'
import { streamToToolResult, type Progress } from './progress'
import { PAYMENT_META, toToolResult, type ToolResult } from './results'
import { credentialHeader, MPP_CREDENTIAL_META } from './mpp'

/** The tool result of a pipeline answer: streamed into progress notifications when the client asked for them. */
const resultOf = (res: Response, origin: CallOrigin, mpp = false) =>
  origin.progress ? streamToToolResult(res, origin.progress, mpp) : toToolResult(res, mpp)

/** Where a tool call comes from: the real socket address of the MCP HTTP request and its abort signal. */
export interface CallOrigin {
  client: string
  signal: AbortSignal
  /** Set when the client asked for progress (`_meta.progressToken`): the call then streams (./progress). */
  progress?: (p: Progress) => void
}

/** Tool-call arguments as the JSON body the HTTP route would receive. */
const jsonRequest = (path: string, args: unknown, origin: CallOrigin, headers: Record<string, string> = {}) =>
  new Request(`http://mcp.internal${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(origin.progress ? { accept: 'text/event-stream' } : {}),
      ...headers,
    },
    body: JSON.stringify(args ?? {}),
    signal: origin.signal,
  })

/**
 * A paid tool call through the same pipeline as HTTP (`servePaid`, so through the same doors: admit, finish): the
 * arguments become the JSON body of POST /api/v1/<slug>, `_meta["x402/payment"]` (a PaymentPayload object) becomes
 * the PAYMENT-SIGNATURE header, and MPP's `_meta["org.paymentauth/credential"]` the `Authorization: Payment` one.
 * Validation before payment, the replay lock, settle-only-on-success and the refusal throttle all apply unchanged.
 */
export async function callPaidTool(
  svc: CatalogService,
  args: unknown,
  meta: Record<string, unknown> | undefined,
  origin: CallOrigin,
  deps: PipelineDeps,
  /** Told once the payment is admitted, before the handler runs (an MCP Task starts there: ./tasks.ts). */
  onAdmitted?: () => void,
): Promise<ToolResult> {
  const payment = meta?.[PAYMENT_META]
  const credential = meta?.[MPP_CREDENTIAL_META]
  const mpp = credential !== undefined && credential !== null
  const headers: Record<string, string> = {
    ...(payment === undefined || payment === null ? {} : { 'payment-signature': b64json(payment) }),
    ...(mpp ? { authorization: credentialHeader(credential) } : {}),
  }
  const res = await servePaid(
    svc,
    jsonRequest(`/api/v1/${svc.slug}`, args, origin, headers),
    newRequestId(),
    origin.client,
    deps,
    onAdmitted,
  )
  return resultOf(res, origin, mpp)
}

/** The free demo tool: the same code path and daily quota as POST /api/demo/explain. */
export async function callDemoTool(
  svc: CatalogService,
  args: unknown,
  origin: CallOrigin,
  quota: QuotaStore,
  deps: PipelineDeps,
): Promise<ToolResult> {
  const res = await serveDemo(
    svc,
    jsonRequest('/api/demo/explain', args, origin),
    newRequestId(),
    origin.client,
    quota,
    deps,
  )
  return resultOf(res, origin)
}
