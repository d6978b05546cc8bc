/**
 * OpenTelemetry traces of paid calls, exported by the official OTLP/HTTP exporter (JSON) to an in-process receiver
 * and checked span by span: one `exact` call, one channel call (`batch-settlement`, the deposit), one streamed call
 * (a model service; its model request carries the `traceparent` of its `chat` span) and one MCP tool call (continuing
 * the caller's `params._meta.traceparent`). Every paid call is a root `paid_call <service>` span with the children
 * admission, handler and finish; the payer appears only hashed. Real chain (anvil, Circle's USDC), official clients.
 * Money check at the end: /stats revenue (every scheme) = exact settled (= ledger) + channel charges, and the payee's
 * on-chain delta = the exact part + the channel charges swept at shutdown.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { PaymentRequired } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { payerHash } from '../../runtime/ops/paid-call'
import { stopTracing, tracing } from '../../runtime/ops/tracing'
import { mcpClient } from '../mcp/client'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver'
import { payingFetch } from '../support/paying-fetch'
import type { TestServer } from '../support/server'
import { until } from '../support/until'

const PRICE = 4200n // test-echo
const QUICK = 10_000n // explain-code quick

let chain: DevChain
let fake: FakeOpenAI
let otlp: OtlpReceiver
let s: TestServer
let payeeBefore: bigint
let exactPaid = 0n
let stopped = false

beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  otlp = startOtlpReceiver()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: 'x402-tracing-test',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'test-key',
      CHANNEL_MIN_DEPOSIT_USD: '0.1',
    },
  })
})
afterAll(async () => {
  if (!stopped) await s?.stop()
  await stopTracing()
  otlp?.stop()
  fake?.close()
  await chain?.stop()
})

const echoInit = (code: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ code }),
})

/** The root span of the paid call answered with `requestId`, once exported, and its direct children by name. */
async function callSpans(requestId: string) {
  await tracing()!.flush()
  let root: ReceivedSpan | undefined
  await until(
    () => (root = otlp.spans.find((x) => x.attributes['x402.request_id'] === requestId)) !== undefined,
    30_000,
    `the root span of ${requestId}`,
  )
  const children = otlp.spans.filter((x) => x.parentSpanId === root!.spanId)
  const child = (name: string) => {
    const c = children.filter((x) => x.name === name)
    expect([name, c.length]).toEqual([name, 1])
    expect(c[0].traceId).toBe(root!.traceId)
    return c[0]
  }
  return { root: root!, children, child }
}

/** A paid call's tree: root, then admission, handler and finish as children, in that order of names. */
function expectPaidCallTree(
  t: Awaited<ReturnType<typeof callSpans>>,
  service: string,
  attributes: Record<string, unknown>,
) {
  expect(t.root.name).toBe(`paid_call ${service}`)
  expect(t.root.resource['service.name']).toBe('x402-tracing-test')
  expect(t.root.attributes).toMatchObject({ 'x402.service': service, 'x402.outcome': 'settled', ...attributes })
  expect(t.root.status.code ?? 0).not.toBe(2)
  expect(t.children.map((c) => c.name).sort()).toEqual(
    ['x402.admission', `handler ${service}`, 'x402.finish'].sort().concat(),
  )
  return {
    admission: t.child('x402.admission'),
    handler: t.child(`handler ${service}`),
    finish: t.child('x402.finish'),
  }
}

test('tracing on: the official SDK exports OTLP JSON to the endpoint; nothing else reached the receiver', () => {
  expect(tracing()).toBeDefined()
  expect(otlp.problems).toEqual([])
})

test('an exact call: one trace, root + admission, handler, finish; scheme, network, amount, transaction, hashed payer', async () => {
  const res = await payingFetch(chain.payer.privateKey as Hex)(`${s.url}/api/v1/test-echo`, echoInit('exact'))
  expect(res.status).toBe(200)
  exactPaid += PRICE
  const tx = JSON.parse(atob(res.headers.get('payment-response')!)).transaction
  const t = await callSpans(res.headers.get('x-request-id')!)
  expectPaidCallTree(t, 'test-echo', {
    'x402.scheme': 'exact',
    'x402.network': NETWORK,
    'x402.amount': String(PRICE),
    'x402.transaction': tx,
    'x402.payer_hash': payerHash(chain.payer.address),
    'x402.tier': 'flat',
  })
  expect(t.root.parentSpanId).toBe('')
  // the payer only hashed: no attribute of any span of this trace holds the address
  const trace = otlp.spans.filter((x) => x.traceId === t.root.traceId)
  expect(JSON.stringify(trace).toLowerCase()).not.toContain(chain.payer.address.toLowerCase().slice(2))
})

test('a channel call (batch-settlement deposit + voucher): the same tree with its scheme and the deposit transaction', async () => {
  const payer = await channelPayer(chain, 1_000_000n)
  const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  const res = await pay(`${s.url}/api/v1/test-echo`, echoInit('channel'))
  expect(res.status).toBe(200)
  const response = JSON.parse(atob(res.headers.get('payment-response')!))
  const t = await callSpans(res.headers.get('x-request-id')!)
  expectPaidCallTree(t, 'test-echo', {
    'x402.scheme': 'batch-settlement',
    'x402.network': NETWORK,
    'x402.amount': String(PRICE),
    'x402.transaction': response.transaction,
    'x402.payer_hash': payerHash(payer.account.address),
  })
  expect(response.transaction).toMatch(/^0x[0-9a-f]{64}$/)
})

test('a streamed model call: the chat span under the handler, and its traceparent went out to the model', async () => {
  fake.reply({ stream: ['It ', 'adds.'], tokens: 99 })
  const res = await payingFetch(chain.payer.privateKey as Hex)(`${s.url}/api/v1/explain-code?tier=quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ code: 'const add = (a, b) => a + b' }),
  })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toStartWith('text/event-stream')
  const text = await res.text()
  expect(text).toContain('event: result')
  exactPaid += QUICK
  const t = await callSpans(res.headers.get('x-request-id')!)
  const { handler } = expectPaidCallTree(t, 'explain-code', {
    'x402.scheme': 'exact',
    'x402.amount': String(QUICK),
    'x402.tier': 'quick',
  })
  const chats = otlp.spans.filter((x) => x.parentSpanId === handler.spanId)
  expect(chats.map((c) => c.name)).toEqual([expect.stringMatching(/^chat /)])
  const chat = chats[0]
  expect(chat.kind).toBe(3) // client
  expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.usage.total_tokens': 99 })
  expect(fake.traceparents).toEqual([`00-${t.root.traceId}-${chat.spanId}-01`])
})

test("an MCP tool call: tools/call span continues the caller's _meta.traceparent; the paid call is its child", async () => {
  const c: Client = await mcpClient(s.url, '?tools=all')
  try {
    const unpaid = await c.callTool({ name: 'test-echo', arguments: { code: 'mcp' } })
    expect(unpaid.isError).toBe(true)
    const required = unpaid.structuredContent as unknown as PaymentRequired
    const client = new x402Client().register(
      NETWORK,
      new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey as Hex)),
    )
    const payment = await client.createPaymentPayload(required as never)
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736'
    const callerSpan = '00f067aa0ba902b7'
    const r = await c.callTool({
      name: 'test-echo',
      arguments: { code: 'mcp' },
      _meta: { 'x402/payment': payment, traceparent: `00-${callerTrace}-${callerSpan}-01` },
    })
    expect(r.isError).toBeFalsy()
    exactPaid += PRICE
    await tracing()!.flush()
    let tool: ReceivedSpan | undefined
    await until(
      () =>
        (tool = otlp.spans.find((x) => x.name === 'tools/call test-echo' && x.traceId === callerTrace)) !== undefined,
      30_000,
      'the tools/call span',
    )
    expect(tool!.parentSpanId).toBe(callerSpan)
    expect(tool!.kind).toBe(2) // server
    expect(tool!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'test-echo',
      'gen_ai.operation.name': 'execute_tool',
    })
    const root = otlp.spans.find((x) => x.parentSpanId === tool!.spanId && x.name === 'paid_call test-echo')!
    expect(root).toBeDefined()
    const t = await callSpans(String(root.attributes['x402.request_id']))
    expectPaidCallTree(t, 'test-echo', { 'x402.scheme': 'exact', 'x402.amount': String(PRICE) })
    expect(t.root.traceId).toBe(callerTrace)
  } finally {
    await c.close()
  }
})

test('a refused payment is a root span with outcome refused and its reason; the unpaid 402 makes no span', async () => {
  const before = otlp.spans.length
  const unpaid = await s.post('/api/v1/test-echo', { code: 'x' })
  expect(unpaid.status).toBe(402)
  const refused = await s.post('/api/v1/test-echo', { code: 'x' }, { 'payment-signature': btoa('{"x402Version":2}') })
  expect(refused.status).toBe(402)
  const t = await callSpans(refused.headers.get('x-request-id')!)
  expect(t.root.attributes).toMatchObject({ 'x402.outcome': 'refused', 'x402.reason': 'invalid_payload' })
  expect(t.root.status.code).toBe(2)
  expect(
    otlp.spans.slice(before).filter((x) => x.attributes['x402.request_id'] === unpaid.headers.get('x-request-id')),
  ).toEqual([])
})

test('money check: /stats revenue = exact (= ledger) + channel charges; payee delta = exact + the charges swept', async () => {
  await s.booted.channels!.stop()
  const totals = await s.booted.storage.channels.totals()
  expect(totals.swept).toBe(totals.earned)
  stopped = true
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally.exact).toBe(exactPaid)
  expect(tally.channels).toBe(totals.earned)
  expect(tally.stats).toBe(tally.exact + tally.channels)
  expect(tally.ledger).toBe(tally.stats)
  expect(tally.delta).toBe(tally.exact + totals.swept)
  expect(tally.unswept + tally.unclaimed).toBe(0n)
})
