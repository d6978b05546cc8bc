/**
 * A2A tasks paid through x402 `batch-settlement` (the same doors as HTTP and MCP) with the official A2A client and
 * the official x402 client (`x402Client` + `@x402/evm/batch-settlement/client`): a deposit, then vouchers, each
 * answered in the task's `x402.payment.payload`; the SettleResponse comes back in `x402.payment.receipts`; a task
 * that fails after admission charges nothing. At shutdown the claim engine claims and sweeps: payee's delta =
 * swept = the charges.
 */
import { expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import { x402Client } from '@x402/core/client'
import { a2aMessage, a2aOptions, a2aRig } from '../support/a2a-rig'
import { channelPayer, channelReceipt, clientFor, hear, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'

const PRICE = 4200n // test-echo: $0.0042

const rig = a2aRig({ entries: withEcho(), env: { CHANNEL_MIN_DEPOSIT_USD: '0.1' } })

const send = async (o: { data?: unknown; taskId?: string; payload?: unknown }) =>
  (await rig.v1.sendMessage(a2aMessage(o), a2aOptions())) as any

test('a channel pays A2A tasks: deposit, then vouchers; a failed task is not charged; claimed and swept at shutdown', async () => {
  const payer = await channelPayer(rig.chain, 1_000_000n)
  const scheme = clientFor(rig.chain.rpcUrl, payer.key)
  const client = new x402Client().register(NETWORK, scheme)

  const call = async (code: string) => {
    const task = await send({ data: { skill: 'test-echo', input: { code } } })
    expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    const required = task.status.message.metadata['x402.payment.required']
    expect(required.accepts.map((a: { scheme: string }) => a.scheme)).toEqual(['exact', 'batch-settlement'])
    const payment = (await client.createPaymentPayload(required)) as PaymentPayload
    expect(payment.accepted.scheme).toBe('batch-settlement')
    const done = await send({ taskId: task.id, payload: payment })
    const receipts = done.status.message.metadata['x402.payment.receipts'] as SettleResponse[]
    const response = receipts.at(-1)
    if (response?.success) await hear(scheme, payment, payment.accepted, response)
    return { done, response }
  }

  const first = await call('one')
  expect(first.done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(first.done.artifacts[0].parts[0].content.value).toEqual({ echo: 'ONE', tier: 'flat' })
  expect(first.response).toMatchObject({ success: true, extra: { chargedAmount: String(PRICE) } })
  expect(first.response!.transaction).toMatch(/^0x[0-9a-f]{64}$/) // the deposit
  for (const code of ['two', 'three']) {
    const { done, response } = await call(code)
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(response).toMatchObject({ success: true, transaction: '', extra: { chargedAmount: String(PRICE) } })
    expect(await channelReceipt(rig.server.url, response)).toMatchObject({
      scheme: 'batch-settlement',
      service: 'test-echo',
      amount: String(PRICE),
      channel: { cumulative: String(PRICE * (code === 'two' ? 2n : 3n)) },
    })
  }
  const failed = await call('fail')
  expect(failed.done.status.state).toBe(TaskState.TASK_STATE_FAILED)
  expect(failed.response).toMatchObject({ success: false })
  const store = rig.server.booted.storage.channels
  expect((await store.totals()).earned).toBe(3n * PRICE)

  await rig.server.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned: 3n * PRICE, claimed: 3n * PRICE, swept: 3n * PRICE })
  // the payee's on-chain delta = the charges swept = /stats revenue
  expect(await rig.expectBooks()).toBe(3n * PRICE)
})
