/**
 * A2A with x402 (docs/a2a.md) on a real local Base replica: the official A2A client (@a2a-js/sdk, both its v1.0
 * wire and its v0.3 compatibility wire) reads the agent card, sends a task, gets `input-required` with
 * `x402.payment.required`, signs it with the official x402 client (@x402/core's x402Client + @x402/evm's
 * ExactEvmScheme), answers on the task with `x402.payment.payload`, and gets the completed task with the result and
 * `x402.payment.receipts`. Balances are read from the chain; the books are checked after every test.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client'
import { Role, TaskState } from '@a2a-js/sdk'
import { ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client'
import { x402Client } from '@x402/core/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { X402_EXTENSION } from '../../runtime/a2a/card'
import type { TestServer } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { withEcho } from '../support/extra-service'

let chain: DevChain
let s: TestServer
let v1: Client
let v03: Client
const PUBLIC = 'https://agents.example'

const options = { serviceParameters: ServiceParameters.createFrom(undefined, withA2AExtensions(X402_EXTENSION)) }

beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: { INVALID_PAYMENT_LIMIT: '0', API_BASE_URL: PUBLIC },
  })
  // The card names the public URL (API_BASE_URL); the test's requests go to the socket, as a proxy would send them.
  const fetchImpl = (url: string | URL | Request, init?: RequestInit) => fetch(String(url).replace(PUBLIC, s.url), init)
  const factory = (legacy: boolean) =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [
          new JsonRpcTransportFactory({
            fetchImpl: fetchImpl as typeof fetch,
            ...(legacy ? { legacyCompat: { enabled: true } } : {}),
          }),
        ],
      }),
    )
  v1 = await factory(false).createFromUrl(s.url)
  v03 = await factory(true).createFromUrl(s.url)
})
afterAll(async () => {
  await s?.stop()
  await chain?.stop()
})

const balances = async () => ({
  payer: await usdcBalance(chain.rpcUrl, chain.payer.address),
  payee: await usdcBalance(chain.rpcUrl, chain.payee.address),
})

/** The money invariant: payee's on-chain balance = ledger settled = /stats revenue (every scheme). */
async function expectBooksBalance() {
  const stats = (await (await fetch(s.url + '/stats')).json()) as any
  const settled = await s.booted.storage.ledger.settledTotal()
  expect(BigInt(stats.totals.revenue_atomic)).toBe(settled)
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(settled)
}

const part = (content: { $case: 'text'; value: string } | { $case: 'data'; value: unknown }) =>
  ({ content, metadata: undefined, filename: '', mediaType: '' }) as never

/** A user message: a new task (`data`), or an answer on `taskId` with x402 metadata. */
const message = (o: { data?: unknown; taskId?: string; metadata?: Record<string, unknown> }) => ({
  tenant: '',
  configuration: undefined,
  metadata: undefined,
  message: {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: o.taskId ?? '',
    role: Role.ROLE_USER,
    parts:
      o.data === undefined
        ? [part({ $case: 'text', value: 'Here is the payment.' })]
        : [part({ $case: 'data', value: o.data })],
    metadata: o.metadata,
    extensions: [],
    referenceTaskIds: [],
  },
})

const asTask = (r: unknown) =>
  r as { id: string; status: { state: number; message: { metadata: any } }; artifacts: any[] }
const signer = (key = chain.payer.privateKey as Hex) =>
  new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key)))

/** The extension's flow up to the signed payload: the task, and the PaymentPayload made from its requirements. */
async function paymentRequest(client: Client, skill: string, input: unknown) {
  const task = asTask(await client.sendMessage(message({ data: { skill, input } }), options))
  expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const meta = task.status.message.metadata
  expect(meta['x402.payment.status']).toBe('payment-required')
  const payload = await signer().createPaymentPayload(meta['x402.payment.required'])
  return { task, meta, payload }
}
const pay = async (client: Client, taskId: string, payload: unknown) =>
  asTask(
    await client.sendMessage(
      message({ taskId, metadata: { 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': payload } }),
      options,
    ),
  )

describe('A2A with x402', () => {
  test('the agent card: v1.0 shape, one skill per service with its price, the x402 extension required', async () => {
    const res = await fetch(`${s.url}/.well-known/agent-card.json`)
    expect(res.status).toBe(200)
    const card = (await res.json()) as any
    expect(card.supportedInterfaces).toContainEqual({
      url: `${PUBLIC}/a2a`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    })
    expect(card.capabilities.extensions).toContainEqual(
      expect.objectContaining({ uri: X402_EXTENSION, required: true }),
    )
    const services = (await (await fetch(`${s.url}/services`)).json()) as any
    expect(card.skills.length).toBe(services.services.length)
    expect(card.skills.find((k: any) => k.id === 'test-echo').description).toContain('$0.0042 USDC per call')
    expect((await fetch(`${s.url}/llms.txt`).then((r) => r.text())).includes('/.well-known/agent-card.json')).toBe(true)
  })

  test('v1.0 client: input-required with the requirements, paid on the task, completed with the result and the receipt', async () => {
    const before = await balances()
    const { task, meta, payload } = await paymentRequest(v1, 'slugify', { text: 'Paid, over A2A!' })
    expect(meta['x402.payment.required']).toMatchObject({ x402Version: 2 })
    expect(meta['x402.payment.required'].accepts[0]).toMatchObject({ scheme: 'exact', amount: '1000' })
    expect(await balances()).toEqual(before)
    const done = await pay(v1, task.id, payload)
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(done.artifacts[0].parts[0].content).toEqual({ $case: 'data', value: { slug: 'paid-over-a2a', length: 13 } })
    const m = done.status.message.metadata
    expect(m['x402.payment.status']).toBe('payment-completed')
    expect(m['x402.payment.receipts']).toHaveLength(1)
    expect(m['x402.payment.receipts'][0]).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: chain.payer.address,
    })
    expect(m['x402.payment.receipts'][0].transaction).toMatch(/^0x[0-9a-f]{64}$/)
    const after = await balances()
    expect(before.payer - after.payer).toBe(1000n)
    expect(after.payee - before.payee).toBe(1000n)
    // the task is kept: GetTask answers it completed
    const got = asTask(await v1.getTask({ tenant: '', id: task.id, historyLength: undefined } as never))
    expect(got.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    // the same payment on the same task again changes nothing
    expect((await pay(v1, task.id, payload)).status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(await balances()).toEqual(after)
    expect(s.logs.join('\n')).not.toContain((payload.payload as { signature: string }).signature)
    await expectBooksBalance()
  })

  test('v0.3 client (message/send): a tiered skill is charged its tier', async () => {
    const before = await balances()
    const input = { code: 'a\nb', tier: 'quick' }
    const { task, payload } = await paymentRequest(v03, 'test-explain', input)
    const done = await pay(v03, task.id, payload)
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(done.artifacts[0].parts[0].content.value).toMatchObject({ service: 'test-explain', tier: 'quick' })
    expect(done.status.message.metadata['x402.payment.receipts'][0].success).toBe(true)
    const after = await balances()
    expect(after.payee - before.payee).toBe(before.payer - after.payer)
    expect(after.payee - before.payee).toBeGreaterThan(0n)
    await expectBooksBalance()
  })

  test('a failed call: the task fails, nothing is charged, the receipt says why', async () => {
    const before = await balances()
    const { task, payload } = await paymentRequest(v1, 'test-echo', { code: 'fail' })
    const failed = await pay(v1, task.id, payload)
    expect(failed.status.state).toBe(TaskState.TASK_STATE_FAILED)
    const m = failed.status.message.metadata
    expect(m['x402.payment.status']).toBe('payment-failed')
    expect(m['x402.payment.error']).toBe('INVALID_INPUT')
    expect(m['x402.payment.receipts'][0]).toMatchObject({ success: false })
    expect(failed.artifacts).toEqual([])
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })

  test('a payment replayed on another task with other input is refused with its reason; money moves once', async () => {
    const { task, payload } = await paymentRequest(v1, 'test-echo', { code: 'once' })
    expect((await pay(v1, task.id, payload)).status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    const before = await balances()
    const other = asTask(
      await v1.sendMessage(message({ data: { skill: 'test-echo', input: { code: 'twice' } } }), options),
    )
    const refused = await pay(v1, other.id, payload)
    expect(refused.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    const m = refused.status.message.metadata
    expect(m['x402.payment.status']).toBe('payment-failed')
    expect(m['x402.payment.error']).toBe('authorization_already_used')
    expect(m['x402.payment.required'].accepts[0].amount).toBe('4200')
    expect(refused.artifacts).toEqual([])
    expect(await balances()).toEqual(before)
    // a payer without USDC: refused the same way, no result
    const poor = await signer(('0x' + '11'.repeat(32)) as Hex).createPaymentPayload(m['x402.payment.required'])
    const broke = await pay(v1, other.id, poor)
    expect(broke.status.message.metadata['x402.payment.status']).toBe('payment-failed')
    expect(broke.artifacts).toEqual([])
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })

  test('bad requests are JSON-RPC errors with a 4xx, no task, nothing asked to pay', async () => {
    await expect(
      v1.sendMessage(message({ data: { skill: 'slugify', input: { text: 42 } } }), options),
    ).rejects.toThrow()
    await expect(v1.sendMessage(message({ data: { skill: 'no-such-skill', input: {} } }), options)).rejects.toThrow(
      /Unknown skill/,
    )
    const raw = async (body: string) => {
      const r = await fetch(`${s.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      return { status: r.status, body: (await r.json()) as any }
    }
    const invalid = await raw(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: { role: 'user', parts: [{ kind: 'data', data: { skill: 'slugify', input: { text: 42 } } }] },
        },
      }),
    )
    expect(invalid.status).toBe(422)
    expect(invalid.body.error).toMatchObject({ code: -32602, data: { code: 'INVALID_INPUT' } })
    expect((await raw('{')).status).toBe(400)
    expect((await raw('{"jsonrpc":"2.0","id":2,"method":"nope"}')).body.error.code).toBe(-32601)
    const missing = await raw('{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"id":"nope"}}')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe(-32001)
    expect(JSON.stringify(missing.body)).not.toContain('stack')
  })
})
