/**
 * A2A streaming paid through x402 `batch-settlement`, with the official A2A client (`sendMessageStream`) and the
 * official x402 client (`x402Client` + `@x402/evm/batch-settlement/client`), on the dev chain with a loopback model:
 * a deposit then vouchers in `x402.payment.payload`; a streamed answer is charged for its tokens (the settle
 * response in the completed task's `x402.payment.receipts`); a client that leaves mid-answer is charged nothing and
 * the task waits for its payment again; a stream cut by the handler's budget completes truncated, charged for the
 * tokens it delivered. At shutdown the claim engine claims and sweeps: payee's delta = swept = the charges = /stats.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { Role, TaskState } from '@a2a-js/sdk'
import { type Client, ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client'
import { x402Client } from '@x402/core/client'
import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import type { Hex } from 'viem'
import { X402_EXTENSION } from '../../runtime/a2a/card'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { chargeFor } from '../../runtime/pay/schemes/batch-settlement/scheme'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { channelPayer, clientFor, hear, NETWORK } from '../support/channels'
import { entries } from '../support/entries'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { startServerOnChain } from '../support/on-chain'
import type { TestServer } from '../support/server'
import { until } from '../support/until'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer
let a2a: Client
const BUDGET_MS = 2000 // security-audit's budget here (45 s in the catalog)
const options = (signal?: AbortSignal) => ({
  serviceParameters: ServiceParameters.createFrom(undefined, withA2AExtensions(X402_EXTENSION)),
  signal,
})

beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  const short: RegistryEntry[] = entries.map((e) =>
    e.manifest.slug === 'security-audit' ? { ...e, manifest: { ...e.manifest, timeoutMs: BUDGET_MS } } : e,
  )
  s = await startServerOnChain(chain, {
    entries: short,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', CHANNEL_MIN_DEPOSIT_USD: '0.1' },
  })
  const card = (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as any
  a2a = await new ClientFactory().createFromAgentCard({
    ...card,
    supportedInterfaces: card.supportedInterfaces.map((i: any) => ({ ...i, url: `${s.url}/a2a` })),
  })
})
afterAll(async () => {
  await s?.stop()
  fake?.close()
  await chain?.stop()
})

const message = (o: { data?: unknown; taskId?: string; payload?: unknown }) =>
  ({
    tenant: '',
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId: crypto.randomUUID(),
      contextId: '',
      taskId: o.taskId ?? '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: o.data === undefined ? { $case: 'text', value: 'payment' } : { $case: 'data', value: o.data },
          metadata: undefined,
          filename: '',
          mediaType: '',
        },
      ],
      metadata:
        o.payload === undefined
          ? undefined
          : { 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': o.payload },
      extensions: [],
      referenceTaskIds: [],
    },
  }) as never

type Event = { payload: { $case: string; value: any } }
async function all(stream: AsyncGenerator<unknown>): Promise<Event[]> {
  const out: Event[] = []
  for await (const e of stream) out.push(e as Event)
  return out
}
const chunks = (events: Event[]) =>
  events
    .filter((e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith('-text'))
    .map((e) => e.payload.value.artifact.parts[0].content.value as string)
const resultOf = (events: Event[]) =>
  events.find((e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith('-result'))
    ?.payload.value.artifact.parts[0].content.value
const receiptOf = (events: Event[]) =>
  (events.at(-1)!.payload.value.status.message.metadata['x402.payment.receipts'] as SettleResponse[]).at(-1)!

/** A payer's channel: the x402 client that signs its deposit and vouchers. */
function payerOf(key: Hex) {
  const scheme = clientFor(chain.rpcUrl, key)
  return { scheme, client: new x402Client().register(NETWORK, scheme) }
}

/** A streamed first message: the task waiting for its payment, and the payment the channel signs for it. */
async function ask(skill: string, input: unknown, payer: ReturnType<typeof payerOf>) {
  const [first] = await all(a2a.sendMessageStream(message({ data: { skill, input } }), options()))
  const task = first!.payload.value
  expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const required = task.status.message.metadata['x402.payment.required']
  const payload = (await payer.client.createPaymentPayload(required)) as PaymentPayload
  expect(payload.accepted.scheme).toBe('batch-settlement')
  return { task, payload, price: BigInt(payload.accepted.amount) }
}

test('a channel pays streamed tasks for their tokens; a client that leaves mid-answer pays nothing; a budget cut pays what it delivered; claimed and swept', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const store = s.booted.storage.channels
  const payer = payerOf((await channelPayer(chain, 1_000_000n)).key)

  // deposit + voucher, streamed: charged for the tokens used (quick: $0.01 for at most 1,000 tokens)
  const one = await ask('explain-code', { code: 'const add = (a, b) => a + b', tier: 'quick' }, payer)
  expect(one.price).toBe(10_000n)
  fake.reply({ stream: ['It ', 'adds.'], tokens: 222 })
  const events = await all(a2a.sendMessageStream(message({ taskId: one.task.id, payload: one.payload }), options()))
  expect(events[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(chunks(events).join('')).toBe('It adds.')
  expect(events.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(resultOf(events)).toMatchObject({ tokens_used: 222, charged: { atomic: '2220' } })
  const paid = receiptOf(events)
  expect(paid).toMatchObject({ success: true, extra: { chargedAmount: '2220' } })
  expect(paid.transaction).toMatch(/^0x[0-9a-f]{64}$/) // the deposit
  await hear(payer.scheme, one.payload, one.payload.accepted, paid)
  expect((await store.totals()).earned).toBe(2220n)

  // a voucher whose client leaves mid-answer: released, nothing charged; the task waits for its payment again
  const two = await ask('explain-code', { code: 'y = 2', tier: 'quick' }, payer)
  fake.reply({ stream: ['One ', 'two ', 'three'], hold: 3 })
  const gone = new AbortController()
  const read: string[] = []
  for await (const e of a2a.sendMessageStream(
    message({ taskId: two.task.id, payload: two.payload }),
    options(gone.signal),
  )) {
    const ev = e as Event
    if (ev.payload.$case === 'artifactUpdate') read.push(ev.payload.value.artifact.parts[0].content.value)
    if (read.length === 2) break
  }
  gone.abort()
  expect(read).toEqual(['One', ' two'])
  await until(() => !fake.holding, 30_000, 'the model call cancelled')
  const waiting = async () => (await a2a.getTask({ tenant: '', id: two.task.id } as never)) as any
  await until(
    async () => (await waiting()).status.state === TaskState.TASK_STATE_INPUT_REQUIRED,
    30_000,
    'the task back to input-required',
  )
  expect((await store.totals()).earned).toBe(2220n)
  // paid again (the channel's client signs for the requirements the task gives again): runs, charged once
  const again = (await payer.client.createPaymentPayload(
    (
      await waiting()
    ).status.message.metadata['x402.payment.required'],
  )) as PaymentPayload
  fake.reply({ stream: ['Sets ', 'y.'], tokens: 300 })
  const second = await all(a2a.sendMessageStream(message({ taskId: two.task.id, payload: again }), options()))
  expect(second.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(receiptOf(second)).toMatchObject({ success: true, transaction: '', extra: { chargedAmount: '3000' } })
  await hear(payer.scheme, again, again.accepted, receiptOf(second))
  expect((await store.totals()).earned).toBe(5220n)

  // the budget cuts a stream after it sent text: completed truncated, charged for the tokens delivered
  // (a second payer: its channel's deposit covers the audit's $0.35 ceiling)
  const auditor = payerOf((await channelPayer(chain, 5_000_000n)).key)
  const audit = await ask('security-audit', { code: 'q(`SELECT ${id}`)', tier: 'quick' }, auditor)
  fake.reply({ stream: ['{"findings": [', '{"title": "SQL'], hold: 2 }) // the model never finishes
  const cut = await all(a2a.sendMessageStream(message({ taskId: audit.task.id, payload: audit.payload }), options()))
  const text = chunks(cut).join('')
  expect(resultOf(cut)).toMatchObject({ truncated: 'HANDLER_TIMEOUT', result: text, tokens_used: countTokens(text) })
  const maxTokens = s.booted.services.find((x) => x.slug === 'security-audit')!.pricing.quick!.max_tokens
  const expected = chargeFor(audit.price, maxTokens, JSON.stringify({ tokens_used: countTokens(text) }))
  expect(cut.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(receiptOf(cut)).toMatchObject({ success: true, extra: { chargedAmount: expected.toString() } })
  expect(expected).toBeLessThan(audit.price)

  // the books: charges = claimed = swept = the payee's on-chain delta = /stats revenue
  const total = 5220n + expected
  await s.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned: total, claimed: total, swept: total })
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(total)
  const stats = (await (await fetch(`${s.url}/stats`)).json()) as any
  expect(BigInt(stats.totals.revenue_atomic)).toBe(total)
  expect(await s.booted.storage.ledger.settledTotal()).toBe(0n) // no exact payment here
})
