/**
 * Secrets never reach the log (issue #13 item 5): viem errors carry the full RPC URL (API key in the path) and the
 * calldata (the full payment signature). The logger redacts every line, so every path is covered.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { generatePrivateKey } from 'viem/accounts'
import { parseSignature, type Hex } from 'viem'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { createLogger, redact } from '../../runtime/log'
import { post, startServer, type TestServer, requirementsAt } from '../support/server'
import { withEcho } from '../support/extra-service'
import { signPayment } from '../support/pay'

const KEY = 'Zk3yS3cr3tAlchemyKey0123456789'
let rpc: ReturnType<typeof Bun.serve>
let s: TestServer
beforeAll(async () => {
  // an RPC provider that fails every call with HTTP 500
  rpc = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('upstream exploded', { status: 500 }) })
  const f = createLocalFacilitator({
    rpcUrl: `http://127.0.0.1:${rpc.port}/v2/${KEY}?apikey=${KEY}`,
    settlerKey: generatePrivateKey(),
    chainId: 8453,
    rpcTimeoutMs: 5_000,
  })
  s = await startServer({ entries: withEcho(), facilitator: f })
})
afterAll(async () => {
  await s?.stop()
  rpc?.stop(true)
})

test('an RPC answering 500 with a key in its URL: 503, and the log holds neither the key nor the signature', async () => {
  const req = await requirementsAt(s.url + '/api/v1/test-echo')
  const header = await signPayment({ key: generatePrivateKey(), requirements: req })
  const signature = JSON.parse(Buffer.from(header, 'base64').toString()).payload.signature as Hex
  const r = await post(s.url + '/api/v1/test-echo', { code: 'x' }, { 'payment-signature': header })
  expect(r.status).toBe(503)
  const log = s.logs.join('\n')
  expect(log).toContain('payment verification unavailable')
  expect(log).toContain('RPC answered HTTP 500') // what failed stays, for the operator
  expect(log).not.toContain(KEY)
  const { r: sigR, s: sigS } = parseSignature(signature)
  for (const part of [signature, signature.slice(2), sigR.slice(2), sigS.slice(2)])
    expect(log.toLowerCase()).not.toContain(part.toLowerCase())
  expect(await r.text()).not.toContain(KEY)
})

test('redaction: known inputs and outputs', () => {
  const sig = '0x' + 'ab'.repeat(65)
  const word = '0x' + '12'.repeat(32) // a tx hash or a nonce stays
  expect(redact(`URL: https://user:pw@base-mainnet.g.alchemy.com/v2/${KEY}?x=1 failed`)).toBe(
    'URL: https://base-mainnet.g.alchemy.com failed',
  )
  expect(redact(`{"url":"wss://rpc.example:8546/ws/${KEY}"}`)).toBe('{"url":"wss://rpc.example:8546"}')
  expect(redact(`data: ${sig} tx ${word}`)).toBe(`data: [65 bytes redacted] tx ${word}`)
  expect(redact(`args:  (0xA, 0xB, 1000, 0, 1, ${word}, 27, ${word}, ${word})\\n`)).toBe('args:  (redacted)\\n')
  expect(redact('at handle (file:///srv/app/runtime/call/pipeline.ts:101:21)')).toBe(
    'at handle (file:///srv/app/runtime/call/pipeline.ts:101:21)',
  )
  const lines: string[] = []
  createLogger('info', (l) => lines.push(l)).error('boom', {
    error: `Request body: {"data":"${sig}"} URL: http://h/v2/${KEY}`,
  })
  expect(lines[0]).not.toContain(KEY)
  expect(lines[0]).not.toContain('ab'.repeat(65))
})
