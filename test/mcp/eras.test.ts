/**
 * /mcp in both protocol eras with the official 2.x client (`@modelcontextprotocol/client` 2.4.0): MCP 2026-07-28
 * (`versionNegotiation: auto`: `server/discover`, no initialize, no session, the per-request `_meta` envelope) and
 * MCP 2025-11-25 (the client's default, `initialize`) on the same URL, each paying a service on the dev chain
 * (anvil, Circle's USDC) with the official x402 client, and a model tier run as a Task in each era (the loopback
 * model of test/model/): settled only once the result is complete, never charged when the call fails or is
 * cancelled. After every test: payee's on-chain delta = ledger = /stats revenue.
 *
 * The 2.4.0 client has no Tasks runtime (its SDK says so: a `tools/call` answered `resultType: "task"` is an
 * unsupported result type there), so the 2026-07-28 task calls are sent as the extension's JSON-RPC over HTTP, with
 * the same envelope the client sends; `tasks/get` and the 2025-11-25 task methods go through the client's `request`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { sqliteOf } from '../../runtime/db/open'
import { fundedPayer, startServerOnChain } from '../support/on-chain'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { withEcho } from '../support/extra-service'
import type { TestServer } from '../support/server'
import { until } from '../support/until'

const MODERN = '2026-07-28'
const TASKS = 'io.modelcontextprotocol/tasks'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer
let modern: Client
let legacy: Client

async function connect(mode: 'auto' | 'legacy'): Promise<Client> {
  const client = new Client(
    { name: 'x402-test-agent', version: '2.0.0' },
    { versionNegotiation: { mode }, capabilities: { extensions: { [TASKS]: {} } } as never },
  )
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp?tools=all`)))
  return client
}

beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', INVALID_PAYMENT_LIMIT: '0' },
  })
  modern = await connect('auto')
  legacy = await connect('legacy')
})
afterAll(async () => {
  await modern?.close()
  await legacy?.close()
  await s?.stop()
  fake?.close()
  await chain?.stop()
})
beforeEach(() => fake.reset())

const payee = () => usdcBalance(chain.rpcUrl, chain.payee.address)
const payerFor = (key: Hex) => new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key)))

/** Payee's on-chain balance = the ledger's settled total = /stats revenue (every scheme). */
async function expectBooksBalance() {
  const stats = (await (await fetch(`${s.url}/stats`)).json()) as { totals: { revenue_usd: number } }
  const settled = sqliteOf(s.booted).ledger.settledTotal()
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(settled)
  expect(await payee()).toBe(settled)
}

/** The x402 MCP flow with the 2.x client: the unpaid call's PaymentRequired, signed by the official x402 client. */
async function paymentFor(client: Client, name: string, args: Record<string, unknown>, key: Hex) {
  const unpaid = await client.callTool({ name, arguments: args })
  expect(unpaid.isError).toBe(true)
  return payerFor(key).createPaymentPayload(unpaid.structuredContent as never)
}

/** One 2026-07-28 JSON-RPC request as the 2.x client sends it (its envelope, declaring the Tasks extension). */
async function modernRpc(
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown> = {},
  extensions: Record<string, unknown> = { [TASKS]: {} },
) {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      // The routing header of the 2026-07-28 transport: the tool's name, or the task's id for the tasks/ methods.
      'mcp-name': String(params.name ?? params.taskId),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'x402-test-agent', version: '2.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { extensions },
          ...meta,
        },
      },
    }),
  })
  const body = (await res.json()) as { result?: any; error?: { code: number; message: string; data?: unknown } }
  return { status: res.status, ...body }
}

const anyResult = z.looseObject({})
const taskGet = (client: Client, taskId: string) =>
  client.request({ method: 'tasks/get', params: { taskId } } as never, anyResult) as Promise<any>

describe('both eras on one URL', () => {
  test('a 2026-07-28 client discovers the server (no initialize, no session); a 2025-11-25 client initializes', async () => {
    expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN)
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25')
    expect(modern.getServerCapabilities()?.extensions?.[TASKS]).toEqual({})
    expect(legacy.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } })
    const [a, b] = [await modern.listTools(), await legacy.listTools()]
    expect(a.tools.map((t) => t.name)).toEqual(b.tools.map((t) => t.name))
    expect(a.tools.length).toBeGreaterThan(100)
    // Tasks: 2025-11-25 lists which tools can run as one; 2026-07-28 has no such field (the server decides).
    expect(b.tools.find((t) => t.name === 'explain-code')?.execution).toEqual({ taskSupport: 'optional' })
    expect(b.tools.find((t) => t.name === 'slugify')?.execution).toBeUndefined()
  })

  for (const era of ['2026-07-28', '2025-11-25'] as const)
    test(`${era}: a paid call answers the result with the SettleResponse in _meta and moves exactly the price`, async () => {
      const client = era === MODERN ? modern : legacy
      const { key, address } = await fundedPayer(chain, 100_000n)
      const before = await payee()
      const args = { text: `Paid over MCP ${era}` }
      const payment = await paymentFor(client, 'slugify', args, key)
      const r = await client.callTool({ name: 'slugify', arguments: args, _meta: { 'x402/payment': payment } })
      expect(r.isError).toBeFalsy()
      expect(r.structuredContent).toMatchObject({ slug: `paid-over-mcp-${era}` })
      expect(r._meta?.['x402/payment-response']).toMatchObject({ success: true, payer: address })
      expect((await payee()) - before).toBe(1000n)
      await expectBooksBalance()
    })
})

test('2026-07-28: a paid model call with a progressToken streams progress while the model writes (no task then)', async () => {
  const { key } = await fundedPayer(chain, 100_000n)
  fake.reply({ stream: ['Adds ', 'two ', 'numbers.'], hold: 2 }) // (the last chunk sent is held back)
  const before = await payee()
  const args = { code: 'const add = (a, b) => a + b', tier: 'quick' }
  const payment = await paymentFor(modern, 'explain-code', args, key)
  const notes: Array<{ progress: number; message?: string }> = []
  const call = modern.callTool({ name: 'explain-code', arguments: args, _meta: { 'x402/payment': payment } }, {
    onprogress: (p: { progress: number; message?: string }) => void notes.push(p),
  } as never)
  // The first chunk reaches the agent while the model is still paused.
  await until(() => notes.length > 0, 30_000, 'a progress notification')
  expect(fake.holding).toBe(true)
  fake.release()
  const r = await call
  expect(r.structuredContent).toMatchObject({ service: 'explain-code', result: 'Adds two numbers.' })
  expect(notes.map((n) => n.message).join('')).toBe('Adds two numbers.')
  expect(r._meta?.['x402/payment-response']).toMatchObject({ success: true })
  expect((await payee()) - before).toBe(10_000n)
  await expectBooksBalance()
})

describe('a model tier as a Task', () => {
  const args = { code: 'const add = (a, b) => a + b', tier: 'quick' }
  const PRICE = 10_000n

  test('2026-07-28: tools/call answers resultType "task" once paid; tasks/get carries the settled result', async () => {
    const { key, address } = await fundedPayer(chain, 100_000n)
    fake.reply({ text: 'It adds two numbers.', tokens: 50 })
    const before = await payee()
    const payment = await paymentFor(modern, 'explain-code', args, key)
    const created = await modernRpc(
      'tools/call',
      { name: 'explain-code', arguments: args },
      { 'x402/payment': payment },
    )
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: expect.any(Number) })
    const { taskId } = created.result
    expect(taskId).toMatch(/^[\w-]{43}$/)
    let task: any
    await until(async () => (task = await taskGet(modern, taskId)).status !== 'working', 30_000, 'task done')
    expect(task.status).toBe('completed')
    expect(task.result.structuredContent).toMatchObject({ service: 'explain-code', result: 'It adds two numbers.' })
    expect(task.result._meta['x402/payment-response']).toMatchObject({ success: true, payer: address })
    expect((await payee()) - before).toBe(PRICE)
    // The result stays with its task id only: another id finds nothing.
    const other = await modernRpc('tasks/get', { taskId: `${taskId.slice(0, -2)}AA` })
    expect(other.error?.code).toBe(-32602)
    // A request that does not declare the Tasks extension is refused the task methods (-32021, the spec's code).
    const undeclared = await modernRpc('tasks/get', { taskId }, {}, {})
    expect(undeclared.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    })
    expect(undeclared.status).toBe(400)
    await expectBooksBalance()
  })

  test('2026-07-28: an unpaid call, or a client without the Tasks extension, is answered at once (no task)', async () => {
    const unpaid = await modernRpc('tools/call', { name: 'explain-code', arguments: args })
    expect(unpaid.result.resultType).toBe('complete')
    expect(unpaid.result.isError).toBe(true)
    expect(unpaid.result.structuredContent.accepts[0].amount).toBe(String(PRICE))
    const { key } = await fundedPayer(chain, 100_000n)
    fake.reply({ text: 'Answered in line.', tokens: 20 })
    const before = await payee()
    const r = await modern.callTool({
      name: 'explain-code',
      arguments: args,
      // The same client, declaring no extension on this request: the server must not answer a task.
      _meta: {
        'x402/payment': await paymentFor(modern, 'explain-code', args, key),
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    })
    expect(r.structuredContent).toMatchObject({ result: 'Answered in line.' })
    expect((await payee()) - before).toBe(PRICE)
    await expectBooksBalance()
  })

  test('2025-11-25: tools/call with `task` answers CreateTaskResult; tasks/result waits for the settled result', async () => {
    const { key, address } = await fundedPayer(chain, 100_000n)
    fake.reply({ text: 'A task of the 2025 era.', tokens: 30 })
    const before = await payee()
    const payment = await paymentFor(legacy, 'explain-code', args, key)
    const created = (await legacy.request(
      {
        method: 'tools/call',
        params: { name: 'explain-code', arguments: args, task: { ttl: 60_000 }, _meta: { 'x402/payment': payment } },
      } as never,
      anyResult,
    )) as any
    expect(created.task).toMatchObject({ status: expect.stringMatching(/^(working|completed)$/) })
    const { taskId } = created.task
    const result = (await legacy.request({ method: 'tasks/result', params: { taskId } } as never, anyResult)) as any
    expect(result.structuredContent).toMatchObject({ result: 'A task of the 2025 era.' })
    expect(result._meta['x402/payment-response']).toMatchObject({ success: true, payer: address })
    expect(result._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId })
    expect((await taskGet(legacy, taskId)).status).toBe('completed')
    expect((await payee()) - before).toBe(PRICE)
    // No tasks/list: one payer's tasks are never shown to another.
    await expect(legacy.request({ method: 'tasks/list', params: {} } as never, anyResult)).rejects.toThrow()
    await expectBooksBalance()
  })

  test('a failed task is never charged: the model fails, the task completes with isError and nothing settles', async () => {
    const { key } = await fundedPayer(chain, 100_000n)
    fake.reply(
      { status: 500, body: { error: { message: 'boom' } } },
      { status: 500, body: { error: { message: 'boom' } } },
    )
    const before = await payee()
    const balance = await usdcBalance(chain.rpcUrl, privateKeyToAccount(key).address)
    const payment = await paymentFor(modern, 'explain-code', args, key)
    const created = await modernRpc(
      'tools/call',
      { name: 'explain-code', arguments: args },
      { 'x402/payment': payment },
    )
    expect(created.result.resultType).toBe('task')
    let task: any
    await until(async () => (task = await taskGet(modern, created.result.taskId)).status !== 'working')
    expect(task.status).toBe('completed')
    expect(task.result.isError).toBe(true)
    expect(task.result.structuredContent.error).toMatchObject({ upstream: 'model' })
    expect(task.result._meta?.['x402/payment-response']).toBeUndefined()
    expect(await payee()).toBe(before)
    expect(await usdcBalance(chain.rpcUrl, privateKeyToAccount(key).address)).toBe(balance)
    await expectBooksBalance()
  })

  test('a cancelled task is never charged: tasks/cancel stops the model call and releases the payment', async () => {
    const { key } = await fundedPayer(chain, 100_000n)
    fake.reply({ hang: true })
    const before = await payee()
    const payment = await paymentFor(legacy, 'explain-code', args, key)
    const created = (await legacy.request(
      {
        method: 'tools/call',
        params: { name: 'explain-code', arguments: args, task: {}, _meta: { 'x402/payment': payment } },
      } as never,
      anyResult,
    )) as any
    const { taskId } = created.task
    await until(() => fake.requests.length === 1, 30_000, 'the model call')
    expect((await taskGet(legacy, taskId)).status).toBe('working')
    const cancelled = (await legacy.request({ method: 'tasks/cancel', params: { taskId } } as never, anyResult)) as any
    expect(cancelled.status).toBe('cancelled')
    await expect(legacy.request({ method: 'tasks/result', params: { taskId } } as never, anyResult)).rejects.toThrow(
      /nothing was charged/,
    )
    expect(await payee()).toBe(before)
    // The authorization was released: the same payment pays a new call.
    fake.reply({ text: 'Paid after all.', tokens: 10 })
    const r = await legacy.callTool({ name: 'explain-code', arguments: args, _meta: { 'x402/payment': payment } })
    expect(r.structuredContent).toMatchObject({ result: 'Paid after all.' })
    expect((await payee()) - before).toBe(PRICE)
    await expectBooksBalance()
  })
})
