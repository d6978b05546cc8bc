/**
 * A remote facilitator's answer read up to a cap (1 MiB, as upstream x402 reads facilitator responses): a larger
 * body, declared or streamed, is cut at the cap and is an error that names the facilitator and the cap, never a
 * string held whole in memory.
 * @module pay/facilitator/bounded-body
 */

/** The most of a facilitator's answer this server reads (bytes). */
export const FACILITATOR_MAX_BYTES = 1024 * 1024

export class BodyTooLarge extends Error {}

/** The body of `res` as text, or BodyTooLarge past `maxBytes` (the rest is not read; the stream is cancelled). */
export async function boundedText(res: Response, what: string, maxBytes = FACILITATOR_MAX_BYTES): Promise<string> {
  const tooLarge = () => new BodyTooLarge(`${what} answered more than ${maxBytes} bytes`)
  const declared = Number(res.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {})
    throw tooLarge()
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    parts.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(parts))
}
