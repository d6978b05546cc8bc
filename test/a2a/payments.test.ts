/**
 * A2A with x402 (docs/a2a.md) on a real local Base replica: the official A2A client (@a2a-js/sdk, both its v1.0
 * wire and its v0.3 compatibility wire) reads the agent card, sends a task, gets `input-required` with
 * `x402.payment.required`, signs it with the official x402 client (@x402/core's x402Client + @x402/evm's
 * ExactEvmScheme), answers on the task with `x402.payment.payload`, and gets the completed task with the result and
 * `x402.payment.receipts`. Balances are read from the chain; the books are checked after every test.
 */
import { describe, expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import type { Client } from '@a2a-js/sdk/client'
import { x402Client } from '@x402/core/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { usdcBalance } from '../../runtime/chain/usdc'
import { X402_EXTENSION } from '../../runtime/a2a/card'
import { a2aMessage, a2aOptions, a2aRig } from '../support/a2a-rig'
import { withEcho } from '../support/extra-service'

// The card names the public URL (API_BASE_URL); the test's requests go to the socket, as a proxy would send them.
const PUBLIC = 'https://agents.example'
const rig = a2aRig({ entries: withEcho(), env: { INVALID_PAYMENT_LIMIT: '0', API_BASE_URL: PUBLIC } })

const balances = async () => ({
  payer: await usdcBalance(rig.chain.rpcUrl, rig.chain.payer.address),
  payee: await usdcBalance(rig.chain.rpcUrl, rig.chain.payee.address),
})

const asTask = (r: unknown) =>
  r as { id: string; status: { state: number; message: { metadata: any } }; artifacts: any[] }
const signer = (key = rig.chain.payer.privateKey as Hex) =>
  new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key)))

/** The extension's flow up to the signed payload: the task, and the PaymentPayload made from its requirements. */
async function paymentRequest(client: Client, skill: string, input: unknown) {
  const task = asTask(await client.sendMessage(a2aMessage({ data: { skill, input } }), a2aOptions()))
  expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const meta = task.status.message.metadata
  expect(meta['x402.payment.status']).toBe('payment-required')
  const payload = await signer().createPaymentPayload(meta['x402.payment.required'])
  return { task, meta, payload }
}
const pay = async (client: Client, taskId: string, payload: unknown) =>
  asTask(await client.sendMessage(a2aMessage({ taskId, payload }), a2aOptions()))

describe('A2A with x402', () => {
  test('the agent card: v1.0 shape, one skill per service with its price, the x402 extension required', async () => {
    const res = await fetch(`${rig.server.url}/.well-known/agent-card.json`)
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
    const services = (await (await fetch(`${rig.server.url}/services`)).json()) as any
    expect(card.skills.length).toBe(services.services.length)
    expect(card.skills.find((k: any) => k.id === 'test-echo').description).toContain('$0.0042 USDC per call')
    expect(
      (await fetch(`${rig.server.url}/llms.txt`).then((r) => r.text())).includes('/.well-known/agent-card.json'),
    ).toBe(true)
  })

  test('v1.0 client: input-required with the requirements, paid on the task, completed with the result and the receipt', async () => {
    const before = await balances()
    const { task, meta, payload } = await paymentRequest(rig.v1, 'slugify', { text: 'Paid, over A2A!' })
    expect(meta['x402.payment.required']).toMatchObject({ x402Version: 2 })
    expect(meta['x402.payment.required'].accepts[0]).toMatchObject({ scheme: 'exact', amount: '1000' })
    expect(await balances()).toEqual(before)
    const done = await pay(rig.v1, task.id, payload)
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(done.artifacts[0].parts[0].content).toEqual({ $case: 'data', value: { slug: 'paid-over-a2a', length: 13 } })
    const m = done.status.message.metadata
    expect(m['x402.payment.status']).toBe('payment-completed')
    expect(m['x402.payment.receipts']).toHaveLength(1)
    expect(m['x402.payment.receipts'][0]).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: rig.chain.payer.address,
    })
    expect(m['x402.payment.receipts'][0].transaction).toMatch(/^0x[0-9a-f]{64}$/)
    const after = await balances()
    expect(before.payer - after.payer).toBe(1000n)
    expect(after.payee - before.payee).toBe(1000n)
    // the task is kept: GetTask answers it completed
    const got = asTask(await rig.v1.getTask({ tenant: '', id: task.id, historyLength: undefined } as never))
    expect(got.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    // the same payment on the same task again changes nothing
    expect((await pay(rig.v1, task.id, payload)).status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(await balances()).toEqual(after)
    expect(rig.server.logs.join('\n')).not.toContain((payload.payload as { signature: string }).signature)
    await rig.expectBooks()
  })

  test('v0.3 client (message/send): a tiered skill is charged its tier', async () => {
    const before = await balances()
    const input = { code: 'a\nb', tier: 'quick' }
    const { task, payload } = await paymentRequest(rig.v03, 'test-explain', input)
    const done = await pay(rig.v03, task.id, payload)
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(done.artifacts[0].parts[0].content.value).toMatchObject({ service: 'test-explain', tier: 'quick' })
    expect(done.status.message.metadata['x402.payment.receipts'][0].success).toBe(true)
    const after = await balances()
    expect(after.payee - before.payee).toBe(before.payer - after.payer)
    expect(after.payee - before.payee).toBeGreaterThan(0n)
    await rig.expectBooks()
  })

  test('a failed call: the task fails, nothing is charged, the receipt says why', async () => {
    const before = await balances()
    const { task, payload } = await paymentRequest(rig.v1, 'test-echo', { code: 'fail' })
    const failed = await pay(rig.v1, task.id, payload)
    expect(failed.status.state).toBe(TaskState.TASK_STATE_FAILED)
    const m = failed.status.message.metadata
    expect(m['x402.payment.status']).toBe('payment-failed')
    expect(m['x402.payment.error']).toBe('INVALID_INPUT')
    expect(m['x402.payment.receipts'][0]).toMatchObject({ success: false })
    expect(failed.artifacts).toEqual([])
    expect(await balances()).toEqual(before)
    await rig.expectBooks()
  })

  test('a payment replayed on another task with other input is refused with its reason; money moves once', async () => {
    const { task, payload } = await paymentRequest(rig.v1, 'test-echo', { code: 'once' })
    expect((await pay(rig.v1, task.id, payload)).status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    const before = await balances()
    const other = asTask(
      await rig.v1.sendMessage(a2aMessage({ data: { skill: 'test-echo', input: { code: 'twice' } } }), a2aOptions()),
    )
    const refused = await pay(rig.v1, other.id, payload)
    expect(refused.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    const m = refused.status.message.metadata
    expect(m['x402.payment.status']).toBe('payment-failed')
    expect(m['x402.payment.error']).toBe('authorization_already_used')
    expect(m['x402.payment.required'].accepts[0].amount).toBe('4200')
    expect(refused.artifacts).toEqual([])
    expect(await balances()).toEqual(before)
    // a payer without USDC: refused the same way, no result
    const poor = await signer(('0x' + '11'.repeat(32)) as Hex).createPaymentPayload(m['x402.payment.required'])
    const broke = await pay(rig.v1, other.id, poor)
    expect(broke.status.message.metadata['x402.payment.status']).toBe('payment-failed')
    expect(broke.artifacts).toEqual([])
    expect(await balances()).toEqual(before)
    await rig.expectBooks()
  })

  test('bad requests are JSON-RPC errors with a 4xx, no task, nothing asked to pay', async () => {
    await expect(
      rig.v1.sendMessage(a2aMessage({ data: { skill: 'slugify', input: { text: 42 } } }), a2aOptions()),
    ).rejects.toThrow()
    await expect(
      rig.v1.sendMessage(a2aMessage({ data: { skill: 'no-such-skill', input: {} } }), a2aOptions()),
    ).rejects.toThrow(/Unknown skill/)
    const raw = async (body: string) => {
      const r = await fetch(`${rig.server.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
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
