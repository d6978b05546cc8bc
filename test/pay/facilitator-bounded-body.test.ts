/**
 * A remote facilitator's answers are read up to 1 MiB (issue #32 item 7, as upstream x402 reads them): a larger
 * body, declared by content-length or streamed without one, is a clear error naming the cap, and a settle whose
 * answer is too large is unknown (it throws: the payment stays pending), never taken as an answer. A facilitator over
 * loopback HTTP; an answer just under the cap is read whole.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { FACILITATOR_MAX_BYTES } from '../../runtime/pay/facilitator/bounded-body'
import { createRemoteFacilitator } from '../../runtime/pay/facilitator/remote'

const NETWORK = 'eip155:8453'
let server: ReturnType<typeof Bun.serve>
let mode: 'declared' | 'streamed' | 'under' = 'under'
let streamedChunks = 0

/** A JSON answer of `bytes` bytes: `{"kinds":[],"pad":"xxxx…"}` (or isValid / success shapes). */
const answer = (bytes: number, head = '{"kinds":[],"isValid":false,"success":false,"pad":"') =>
  head + 'x'.repeat(Math.max(0, bytes - head.length - 2)) + '"}'

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch() {
      if (mode === 'declared') return new Response(answer(2 * FACILITATOR_MAX_BYTES), { status: 200 })
      if (mode === 'under') return new Response(answer(FACILITATOR_MAX_BYTES - 10), { status: 200 })
      // streamed: 64 KiB chunks without content-length, forever unless the reader stops
      streamedChunks = 0
      const chunk = new TextEncoder().encode('x'.repeat(65_536))
      return new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('{"kinds":[],"pad":"'))
          },
          pull(c) {
            streamedChunks++
            if (streamedChunks > 200) return c.close() // 12.5 MiB: the test fails before this if not cut
            c.enqueue(chunk)
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      )
    },
  })
})
afterAll(() => server?.stop(true))

const remote = () => createRemoteFacilitator({ url: `http://127.0.0.1:${server.port}` })
const payment = { x402Version: 2, scheme: 'exact', network: NETWORK, raw: {} } as never
const requirements = { scheme: 'exact', network: NETWORK, amount: '1', asset: '0x', payTo: '0x', extra: {} } as never

test('an answer just under 1 MiB is read whole', async () => {
  mode = 'under'
  expect((await remote().supported()).kinds).toEqual([])
  expect((await remote().verify(payment, requirements)).isValid).toBe(false)
})

test('a body declared above 1 MiB is refused unread, with the cap in the error', async () => {
  mode = 'declared'
  await expect(remote().supported()).rejects.toThrow(`answered more than ${FACILITATOR_MAX_BYTES} bytes`)
  await expect(remote().verify(payment, requirements)).rejects.toThrow(/verify answered more than 1048576 bytes/)
})

test('a streamed body is cut at 1 MiB; a settle answered so is unknown (throws), not a refusal', async () => {
  mode = 'streamed'
  await expect(remote().supported()).rejects.toThrow(/more than 1048576 bytes/)
  expect(streamedChunks).toBeLessThan(200) // cut: the 12.5 MiB stream was not read to its end
  await expect(remote().settle(payment, requirements, () => {})).rejects.toThrow(/settle answered more than/)
})
