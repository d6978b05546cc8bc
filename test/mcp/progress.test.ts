/**
 * MCP progress (spec 2025-06-18, notifications/progress): a tool call that sends `_meta.progressToken` gets one
 * notification per chunk of the model's answer while the model is still writing (Streamable HTTP answers that
 * request as SSE), then the result as usual, with the settlement response and its signed receipt in `_meta`.
 * The agent is the official MCP SDK client; payments are signed by @x402/evm on the dev chain.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { TestServer } from '../support/server'
import { startServerOnChain, stopAndTally } from '../support/on-chain'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { until } from '../support/until'
import { sseReader } from '../support/sse'
import { mcpClient } from './client'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer
let c: Client
let payeeBefore: bigint
let expected = 0n
beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  s = await startServerOnChain(chain, {
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', STREAM_HEARTBEAT_MS: '40' },
  })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  c = await mcpClient(s.url)
  await c.listTools()
})
afterAll(async () => {
  fake?.release()
  await c?.close()
  const books = await stopAndTally(chain, [s], payeeBefore)
  expect(books).toEqual({ delta: expected, stats: expected, ledger: expected })
  fake?.close()
  await chain?.stop()
})
beforeEach(() => fake.reset())

type Note = { progress: number; message?: string }

test('a paid model tool with a progressToken: progress while the model writes, then the result and receipt', async () => {
  const args = { code: 'const add = (a, b) => a + b', tier: 'quick' }
  const unpaid = await c.callTool({ name: 'explain-code', arguments: args })
  expect(unpaid.isError).toBe(true)
  const required = unpaid.structuredContent as { accepts: Array<{ amount: string }> }
  const payment = await new x402Client()
    .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey as Hex)))
    .createPaymentPayload(required as never)
  fake.reply({ stream: ['Adds ', 'two ', 'numbers.'], hold: 2 }) // (the last chunk sent is held back)
  const notes: Note[] = []
  const call = c.callTool({ name: 'explain-code', arguments: args, _meta: { 'x402/payment': payment } }, undefined, {
    onprogress: (p) => void notes.push(p),
  })
  // The first chunk reaches the agent while the model is still paused.
  await until(() => notes.length > 0, 30_000, 'a progress notification')
  expect(fake.holding).toBe(true)
  expect(notes[0]).toMatchObject({ progress: 'Adds'.length, message: 'Adds' })
  fake.release()
  const r = await call
  expect(r.isError).toBeUndefined()
  const out = r.structuredContent as { result: string; service: string }
  expect(out).toMatchObject({ service: 'explain-code', tier: 'quick', result: 'Adds two numbers.' })
  expect(notes.map((n) => n.message).join('')).toBe(out.result)
  expect(notes.at(-1)!.progress).toBe(out.result.length)
  const settle = r._meta?.['x402/payment-response'] as any
  expect(settle.success).toBe(true)
  expected += BigInt(required.accepts[0]!.amount)
  const did = (await (await fetch(s.url + '/.well-known/did.json')).json()) as any
  const receipt = settle.extensions['offer-receipt'].info.receipt
  const payload = (await verifyReceiptSignatureJWS(receipt, did.verificationMethod[0].publicKeyJwk)) as any
  expect(payload).toMatchObject({ service: 'explain-code', tier: 'quick', transaction: settle.transaction })
})

test('the free demo tool sends progress too; without a progressToken the answer is JSON as before', async () => {
  fake.reply({ stream: ['A ', 'demo.'] })
  const notes: Note[] = []
  const r = await c.callTool({ name: 'demo_explain_code', arguments: { code: 'print(1)' } }, undefined, {
    onprogress: (p) => void notes.push(p),
  })
  expect((r.structuredContent as { result: string }).result).toBe('A demo.')
  expect(notes.map((n) => n.message).join('')).toBe('A demo.')
  fake.reply({ text: 'Quiet.' })
  const res = await fetch(s.url + '/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'demo_explain_code', arguments: { code: 'x' } },
    }),
  })
  expect(res.headers.get('content-type')).toStartWith('application/json')
  expect(((await res.json()) as any).result.structuredContent.result).toBe('Quiet.')
})

test('a model stream that breaks off over MCP: progress, then an isError result; nothing is charged', async () => {
  const args = { code: 'broken()', tier: 'quick' }
  const unpaid = await c.callTool({ name: 'explain-code', arguments: args })
  const payment = await new x402Client()
    .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey as Hex)))
    .createPaymentPayload(unpaid.structuredContent as never)
  fake.reply({ stream: ['Half ', 'of ', 'it'], hold: 2, breakAfter: 2 })
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const notes: Note[] = []
  const call = c.callTool({ name: 'explain-code', arguments: args, _meta: { 'x402/payment': payment } }, undefined, {
    onprogress: (p) => void notes.push(p),
  })
  await until(() => notes.length > 0, 30_000, 'a progress notification')
  fake.release()
  const r = await call
  expect(r.isError).toBe(true)
  expect(r.structuredContent).toMatchObject({ error: { code: 'UPSTREAM_ERROR', upstream: 'model' } })
  expect(r._meta?.['x402/payment-response']).toBeUndefined()
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
})

test('the SSE answer of a tool call with progress: notifications, keep-alive comments while the model thinks, the result', async () => {
  fake.reply({ stream: ['Thinking ', 'do', 'ne.'], hold: 2 })
  const res = await fetch(s.url + '/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'demo_explain_code', arguments: { code: 'think()' }, _meta: { progressToken: 'p1' } },
    }),
  })
  expect(res.headers.get('content-type')).toStartWith('text/event-stream')
  const events = sseReader(res)
  const first = await events.next()
  expect(first?.data).toMatchObject({
    method: 'notifications/progress',
    params: { progressToken: 'p1', progress: 'Thinking'.length, message: 'Thinking' },
  })
  expect((await events.next(true))?.event).toBe(':') // idle while the model is paused: keep-alive
  expect(fake.holding).toBe(true)
  fake.release()
  const last = (await events.rest()).at(-1)!
  expect(last.data).toMatchObject({ id: 7, result: { structuredContent: { result: 'Thinking done.' } } })
})

test('delivered output is paid over MCP too: every progress notification read, then the agent leaves before the result: charged', async () => {
  const args = { code: 'const add = (a, b) => a + b', tier: 'quick' }
  const unpaid = await c.callTool({ name: 'explain-code', arguments: args })
  const required = unpaid.structuredContent as { accepts: Array<{ amount: string }> }
  const payment = await new x402Client()
    .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey as Hex)))
    .createPaymentPayload(required as never)
  const settledBefore = await s.booted.storage.ledger.settledTotal()
  // the provider pauses after its finish chunk (before usage and [DONE])
  fake.reply({ stream: ['Adds ', 'two ', 'numbers.'], hold: 'finish' })
  const gone = new AbortController()
  const res = await fetch(s.url + '/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'explain-code', arguments: args, _meta: { progressToken: 'p9', 'x402/payment': payment } },
    }),
    signal: gone.signal,
  })
  expect(res.headers.get('content-type')).toStartWith('text/event-stream')
  const events = sseReader(res)
  const messages: string[] = []
  while (messages.join('') !== 'Adds two numbers.') {
    const e = await events.next()
    if (!e) break
    if (e.data?.method === 'notifications/progress') messages.push(e.data.params.message)
  }
  expect(messages.join('')).toBe('Adds two numbers.')
  gone.abort()
  await res.body?.cancel().catch(() => {})
  const price = BigInt(required.accepts[0]!.amount)
  await until(
    async () => (await s.booted.storage.ledger.settledTotal()) === settledBefore + price,
    30_000,
    'the delivered answer charged',
  )
  expected += price
})
