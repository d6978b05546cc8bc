/**
 * A tool call the client asked progress for (`_meta.progressToken`): the call runs as a stream through the same
 * pipeline (docs/streaming.md) and each text chunk becomes a `notifications/progress` (progress = characters of
 * the answer so far, message = the chunk; a restarted answer says so in its message and counts on); the final event
 * becomes the tool result, as a JSON answer would.
 * @module mcp/progress
 */
import { PAYMENT_RESPONSE_META, objectResult, toToolResult, type ToolResult } from './results'
import { MPP_RECEIPT_META } from './mpp'

export interface Progress {
  progress: number
  message?: string
}

/** Reads one streamed answer into progress notifications and a tool result (a JSON answer goes as before). */
export async function streamToToolResult(
  res: Response,
  onProgress: (p: Progress) => void,
  mpp = false,
): Promise<ToolResult> {
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return toToolResult(res, mpp)
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buf = ''
  let chars = 0
  let final: ToolResult | undefined
  const onEvent = (block: string) => {
    let event = ''
    let data = ''
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) data += line.slice(5).trimStart()
    }
    if (!event || !data) return // a keep-alive comment
    const value = JSON.parse(data) as Record<string, unknown>
    if (event === 'delta') {
      const text = String(value.text ?? '')
      chars += text.length
      onProgress({ progress: chars, message: text })
    } else if (event === 'restart') {
      // Progress must only increase (MCP): the count goes on; the message says to drop the text so far.
      onProgress({ progress: ++chars, message: `(restart: ${String(value.reason ?? '')})` })
    } else if (event === 'result') {
      const { payment, ...result } = value
      // MPP's receipt (method, reference) or x402's settlement response, each under its own key.
      const key =
        (payment as { method?: unknown } | undefined)?.method === 'evm' ? MPP_RECEIPT_META : PAYMENT_RESPONSE_META
      final = objectResult(result, false, payment ? { [key]: payment } : undefined)
    } else if (event === 'error') final = objectResult(value, true)
  }
  for (;;) {
    const { done, value } = await reader.read()
    if (value) buf += value
    for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
      onEvent(buf.slice(0, cut))
      buf = buf.slice(cut + 2)
    }
    if (done) break
  }
  return (
    final ??
    objectResult(
      { error: { code: 'INTERNAL', message: 'The streamed answer ended without a result; nothing was charged.' } },
      true,
    )
  )
}
