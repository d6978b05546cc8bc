/**
 * A2A streaming paid through x402 `batch-settlement`, with the official A2A client (`sendMessageStream`) and the
 * official x402 client (`x402Client` + `@x402/evm/batch-settlement/client`), on the dev chain with a loopback model:
 * a deposit then vouchers in `x402.payment.payload`; a streamed answer is charged for its tokens (the settle
 * response in the completed task's `x402.payment.receipts`); a client that leaves mid-answer is charged nothing and
 * the task waits for its payment again; a stream cut by the handler's budget completes truncated, charged for the
 * tokens it delivered. At shutdown the claim engine claims and sweeps: payee's delta = swept = the charges = /stats.
 */
import { expect, test } from 'bun:test'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { TaskState } from '@a2a-js/sdk'
import { x402Client } from '@x402/core/client'
import type { PaymentPayload } from '@x402/core/types'
import type { Hex } from 'viem'
import { chargeFor } from '../../runtime/pay/schemes/batch-settlement/scheme'
import {
  type A2aEvent,
  a2aMessage,
  a2aOptions,
  a2aRig,
  allEvents,
  receiptOf,
  resultOf,
  textChunks,
  untilTaskState,
} from '../support/a2a-rig'
import { channelPayer, clientFor, hear, NETWORK } from '../support/channels'
import { withBudget } from '../support/entries'
import { until } from '../support/until'

const BUDGET_MS = 2000 // security-audit's budget here (45 s in the catalog)
const rig = a2aRig({
  entries: withBudget('security-audit', BUDGET_MS),
  env: { CHANNEL_MIN_DEPOSIT_USD: '0.1' },
  model: true,
})

/** A payer's channel: the x402 client that signs its deposit and vouchers. */
function payerOf(key: Hex) {
  const scheme = clientFor(rig.chain.rpcUrl, key)
  return { scheme, client: new x402Client().register(NETWORK, scheme) }
}

/** A streamed first message: the task waiting for its payment, and the payment the channel signs for it. */
async function ask(skill: string, input: unknown, payer: ReturnType<typeof payerOf>) {
  const [first] = await allEvents(rig.v1.sendMessageStream(a2aMessage({ data: { skill, input } }), a2aOptions()))
  const task = first!.payload.value
  expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const required = task.status.message.metadata['x402.payment.required']
  const payload = (await payer.client.createPaymentPayload(required)) as PaymentPayload
  expect(payload.accepted.scheme).toBe('batch-settlement')
  return { task, payload, price: BigInt(payload.accepted.amount) }
}

test('a channel pays streamed tasks for their tokens; a client that leaves mid-answer pays nothing; a budget cut pays what it delivered; claimed and swept', async () => {
  const store = rig.server.booted.storage.channels
  const payer = payerOf((await channelPayer(rig.chain, 1_000_000n)).key)

  // deposit + voucher, streamed: charged for the tokens used (quick: $0.01 for at most 1,000 tokens)
  const one = await ask('explain-code', { code: 'const add = (a, b) => a + b', tier: 'quick' }, payer)
  expect(one.price).toBe(10_000n)
  rig.fake.reply({ stream: ['It ', 'adds.'], tokens: 222 })
  const events = await allEvents(
    rig.v1.sendMessageStream(a2aMessage({ taskId: one.task.id, payload: one.payload }), a2aOptions()),
  )
  expect(events[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(textChunks(events).join('')).toBe('It adds.')
  expect(events.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(resultOf(events)).toMatchObject({ tokens_used: 222, charged: { atomic: '2220' } })
  const paid = receiptOf(events)
  expect(paid).toMatchObject({ success: true, extra: { chargedAmount: '2220' } })
  expect(paid.transaction).toMatch(/^0x[0-9a-f]{64}$/) // the deposit
  await hear(payer.scheme, one.payload, one.payload.accepted, paid)
  expect((await store.totals()).earned).toBe(2220n)

  // a voucher whose client leaves mid-answer: released, nothing charged; the task waits for its payment again
  const two = await ask('explain-code', { code: 'y = 2', tier: 'quick' }, payer)
  rig.fake.reply({ stream: ['One ', 'two ', 'three'], hold: 3 })
  const gone = new AbortController()
  const read: string[] = []
  for await (const e of rig.v1.sendMessageStream(
    a2aMessage({ taskId: two.task.id, payload: two.payload }),
    a2aOptions(gone.signal),
  )) {
    const ev = e as A2aEvent
    if (ev.payload.$case === 'artifactUpdate') read.push(ev.payload.value.artifact.parts[0].content.value)
    if (read.length === 2) break
  }
  gone.abort()
  expect(read).toEqual(['One', ' two'])
  await until(() => !rig.fake.holding, 30_000, 'the model call cancelled')
  const waiting = await untilTaskState(
    rig.v1,
    two.task.id,
    TaskState.TASK_STATE_INPUT_REQUIRED,
    'the task back to input-required',
  )
  expect((await store.totals()).earned).toBe(2220n)
  // paid again (the channel's client signs for the requirements the task gives again): runs, charged once
  const again = (await payer.client.createPaymentPayload(
    waiting.status.message.metadata['x402.payment.required'],
  )) as PaymentPayload
  rig.fake.reply({ stream: ['Sets ', 'y.'], tokens: 300 })
  const second = await allEvents(
    rig.v1.sendMessageStream(a2aMessage({ taskId: two.task.id, payload: again }), a2aOptions()),
  )
  expect(second.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(receiptOf(second)).toMatchObject({ success: true, transaction: '', extra: { chargedAmount: '3000' } })
  await hear(payer.scheme, again, again.accepted, receiptOf(second))
  expect((await store.totals()).earned).toBe(5220n)

  // the budget cuts a stream after it sent text: completed truncated, charged for the tokens delivered
  // (a second payer: its channel's deposit covers the audit's $0.35 ceiling)
  const auditor = payerOf((await channelPayer(rig.chain, 5_000_000n)).key)
  const audit = await ask('security-audit', { code: 'q(`SELECT ${id}`)', tier: 'quick' }, auditor)
  rig.fake.reply({ stream: ['{"findings": [', '{"title": "SQL'], hold: 2 }) // the model never finishes
  const cut = await allEvents(
    rig.v1.sendMessageStream(a2aMessage({ taskId: audit.task.id, payload: audit.payload }), a2aOptions()),
  )
  const text = textChunks(cut).join('')
  expect(resultOf(cut)).toMatchObject({ truncated: 'HANDLER_TIMEOUT', result: text, tokens_used: countTokens(text) })
  const maxTokens = rig.server.booted.services.find((x) => x.slug === 'security-audit')!.pricing.quick!.max_tokens
  const expected = chargeFor(audit.price, maxTokens, JSON.stringify({ tokens_used: countTokens(text) }))
  expect(cut.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(receiptOf(cut)).toMatchObject({ success: true, extra: { chargedAmount: expected.toString() } })
  expect(expected).toBeLessThan(audit.price)

  // the books: charges = claimed = swept = the payee's on-chain delta = /stats revenue
  const total = 5220n + expected
  await rig.server.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned: total, claimed: total, swept: total })
  expect(await rig.expectBooks()).toBe(total)
  expect(await rig.server.booted.storage.ledger.settledTotal()).toBe(0n) // no exact payment here
})
