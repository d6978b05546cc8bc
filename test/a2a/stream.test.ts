/**
 * A2A streaming (`message/stream`, `SendStreamingMessage`) paid with x402 `exact`, on the dev chain with a loopback
 * model: the official A2A client's `sendMessageStream` gets the task `input-required` with `x402.payment.required`,
 * signs it with the official x402 client, and sends the payment on the task as a stream: the task `working`, the
 * answer's chunks as artifact updates, the result artifact, the task `completed` with the receipt. The money rules
 * are the HTTP stream's (docs/streaming.md): a client that leaves mid-answer pays nothing (the model call is
 * cancelled, the task waits for a payment again); a stream cut by the handler's budget after it sent text ends with a
 * truncated result, charged the price. Books after each test: the payee's delta = /stats revenue = the ledger.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role, TaskState } from '@a2a-js/sdk'
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client'
import { x402Client } from '@x402/core/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { X402_EXTENSION } from '../../runtime/a2a/card'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { entries } from '../support/entries'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { fundedPayer, startServerOnChain } from '../support/on-chain'
import type { TestServer } from '../support/server'
import { until } from '../support/until'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer
let v1: Client
let v03: Client
let payeeBefore = 0n
const options = (signal?: AbortSignal) => ({
  serviceParameters: ServiceParameters.createFrom(undefined, withA2AExtensions(X402_EXTENSION)),
  signal,
})
const EXPLAIN_PRICE = 10_000n // explain-code, quick
/** security-audit with a 2 s budget here (45 s in the catalog): the budget cuts a stream the model holds open. */
const BUDGET_MS = 2000

beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  const short: RegistryEntry[] = entries.map((e) =>
    e.manifest.slug === 'security-audit' ? { ...e, manifest: { ...e.manifest, timeoutMs: BUDGET_MS } } : e,
  )
  s = await startServerOnChain(chain, {
    entries: short,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' },
  })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  // The card names API_BASE_URL (known once the server listens): read it, point it at the socket, connect.
  const read = (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as any
  const card = {
    ...read,
    url: `${s.url}/a2a`,
    supportedInterfaces: read.supportedInterfaces.map((i: any) => ({ ...i, url: `${s.url}/a2a` })),
  }
  expect(card.capabilities.streaming).toBe(true)
  const factory = (legacy: boolean) =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory(legacy ? { legacyCompat: { enabled: true } } : {})],
      }),
    )
  v1 = await factory(false).createFromAgentCard(card)
  v03 = await factory(true).createFromAgentCard(card)
})
afterAll(async () => {
  await s?.stop()
  fake?.close()
  await chain?.stop()
})

const ledger = () => s.booted.storage.ledger

/** The books: the payee's on-chain delta = /stats revenue (every scheme) = the ledger's settled total. */
async function expectBooksBalance() {
  const settled = await ledger().settledTotal()
  const stats = (await (await fetch(`${s.url}/stats`)).json()) as any
  expect(BigInt(stats.totals.revenue_atomic)).toBe(settled)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(settled)
}

/** A user message: a new task (`data`), or the payment on `taskId`. */
const message = (o: { data?: unknown; taskId?: string; payload?: unknown }) => ({
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
})

type Event = { payload: { $case: string; value: any } }

/** Every event of a streamed send. */
async function all(stream: AsyncGenerator<unknown>): Promise<Event[]> {
  const out: Event[] = []
  for await (const e of stream) out.push(e as Event)
  return out
}

/** The first message as a stream: one event, the task waiting for its payment; and the payment signed for it. */
async function askToPay(client: Client, skill: string, input: unknown, key: Hex) {
  const events = await all(client.sendMessageStream(message({ data: { skill, input } }) as never, options()))
  expect(events).toHaveLength(1)
  const task = events[0]!.payload.value
  expect(events[0]!.payload.$case).toBe('task')
  expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const meta = task.status.message.metadata
  expect(meta['x402.payment.status']).toBe('payment-required')
  const signer = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key)))
  return { task, payload: await signer.createPaymentPayload(meta['x402.payment.required']) }
}

const chunks = (events: Event[]) =>
  events
    .filter((e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith('-text'))
    .map((e) => e.payload.value.artifact.parts[0].content.value as string)

test('v1.0 client: paid on the task as a stream: working, the chunks, the result artifact, completed with the receipt', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const input = { code: 'const add = (a, b) => a + b', tier: 'quick' }
  const { task, payload } = await askToPay(v1, 'explain-code', input, payer.key)
  fake.reply({ stream: ['It ', 'adds ', 'two numbers.'] })
  const events = await all(v1.sendMessageStream(message({ taskId: task.id, payload }) as never, options()))
  expect(events[0]!.payload.$case).toBe('task')
  expect(events[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(events[0]!.payload.value.status.message.metadata['x402.payment.status']).toBe('payment-verified')
  expect(chunks(events).join('')).toBe('It adds two numbers.')
  const text = events.filter((e) => e.payload.$case === 'artifactUpdate').map((e) => e.payload.value)
  expect(text[0].append).toBe(false) // the first chunk starts the artifact, the next ones append
  expect(text[1].append).toBe(true)
  const result = events.find(
    (e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId === `${task.id}-result`,
  )!.payload.value
  expect(result.lastChunk).toBe(true)
  expect(result.artifact.parts[0].content.value).toMatchObject({
    service: 'explain-code',
    tier: 'quick',
    result: 'It adds two numbers.',
  })
  const last = events.at(-1)!
  expect(last.payload.$case).toBe('statusUpdate')
  expect(last.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  const meta = last.payload.value.status.message.metadata
  expect(meta['x402.payment.status']).toBe('payment-completed')
  expect(meta['x402.payment.receipts']).toHaveLength(1)
  expect(meta['x402.payment.receipts'][0]).toMatchObject({ success: true, payer: payer.address })
  expect(meta['x402.payment.receipts'][0].transaction).toMatch(/^0x[0-9a-f]{64}$/)
  expect(meta['x402.payment.receipts'][0].extensions['offer-receipt']).toBeDefined()
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  // GetTask answers the completed task with its result
  const got = (await v1.getTask({ tenant: '', id: task.id, historyLength: undefined } as never)) as any
  expect(got.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(got.artifacts[0].parts[0].content.value.result).toBe('It adds two numbers.')
  await expectBooksBalance()
})

test('v0.3 client (message/stream): a client that leaves mid-answer pays nothing; the task waits; paid again, it runs once', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const input = { code: 'y = 2', tier: 'quick' }
  const { task, payload } = await askToPay(v03, 'explain-code', input, payer.key)
  const settled = await ledger().settledTotal()
  // the provider pauses after its last content chunk, before the finish chunk: the answer is not complete
  fake.reply({ stream: ['One ', 'two ', 'three'], hold: 3 })
  const gone = new AbortController()
  const read: string[] = []
  for await (const e of v03.sendMessageStream(message({ taskId: task.id, payload }) as never, options(gone.signal))) {
    const ev = e as Event
    if (ev.payload.$case === 'artifactUpdate') read.push(ev.payload.value.artifact.parts[0].content.value)
    if (read.length === 2) break // the client leaves (the SDK cancels the stream's body)
  }
  gone.abort()
  expect(read).toEqual(['One', ' two'])
  await until(
    async () => (await ledger().byState(['released'])).some((x) => x.payer === payer.address.toLowerCase()),
    30_000,
    'the payment released',
  )
  await until(() => !fake.holding, 30_000, 'the model call cancelled')
  expect(await ledger().settledTotal()).toBe(settled)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(EXPLAIN_PRICE)
  // the task waits for a payment again, with the requirements
  await until(
    async () =>
      ((await v03.getTask({ tenant: '', id: task.id } as never)) as any).status.state ===
      TaskState.TASK_STATE_INPUT_REQUIRED,
    30_000,
    'the task back to input-required',
  )
  const waiting = (await v03.getTask({ tenant: '', id: task.id } as never)) as any
  expect(waiting.status.message.metadata['x402.payment.status']).toBe('payment-required')
  expect(waiting.status.message.metadata['x402.payment.required'].accepts[0].amount).toBe(String(EXPLAIN_PRICE))
  expect(waiting.artifacts).toEqual([])
  // the same payment again (a failed run may run again): streamed to the end this time, charged once
  fake.reply({ stream: ['One ', 'two.'] })
  const events = await all(v03.sendMessageStream(message({ taskId: task.id, payload }) as never, options()))
  const last = events.at(-1)!.payload.value
  expect(last.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(chunks(events).join('')).toBe('One two.')
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  expect(await ledger().settledTotal()).toBe(settled + EXPLAIN_PRICE)
  await expectBooksBalance()
})

test('a client that leaves before any answer (a send, a stream before its first chunk): nothing charged; the task waits again', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(v1, 'explain-code', { code: 'v = 5', tier: 'quick' }, payer.key)
  const settled = await ledger().settledTotal()
  const waits = async () =>
    ((await v1.getTask({ tenant: '', id: task.id } as never)) as any).status.state ===
    TaskState.TASK_STATE_INPUT_REQUIRED
  for (const streamed of [false, true]) {
    const calls = fake.requests.length
    // the model never answers (a stream: not even its first chunk) until its caller goes
    fake.reply(streamed ? { stream: ['never'], hold: 0 } : { hang: true })
    const gone = new AbortController()
    const sent = streamed
      ? all(v1.sendMessageStream(message({ taskId: task.id, payload }) as never, options(gone.signal)))
      : v1.sendMessage(message({ taskId: task.id, payload }) as never, options(gone.signal))
    const left = sent.then(
      () => 'answered',
      () => 'left',
    )
    await until(() => fake.requests.length > calls, 30_000, 'the model called')
    gone.abort()
    expect(await left).toBe('left')
    await until(waits, 30_000, 'the task back to input-required')
    await until(() => !fake.holding, 30_000, 'the model call cancelled')
    const waiting = (await v1.getTask({ tenant: '', id: task.id } as never)) as any
    expect(waiting.status.message.metadata['x402.payment.status']).toBe('payment-required')
    expect(waiting.status.message.metadata['x402.payment.required'].accepts[0].amount).toBe(String(EXPLAIN_PRICE))
    expect(await ledger().settledTotal()).toBe(settled)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(EXPLAIN_PRICE)
  }
  await expectBooksBalance()
})

test('every chunk read, then the client leaves before the result: charged; the same payment on the task collects the kept result', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(v1, 'explain-code', { code: 'z = 3', tier: 'quick' }, payer.key)
  const settled = await ledger().settledTotal()
  // the provider pauses after its finish chunk (before usage and [DONE]): the answer is complete
  fake.reply({ stream: ['It ', 'sets z.'], hold: 'finish', usage: false })
  const gone = new AbortController()
  const read: string[] = []
  for await (const e of v1.sendMessageStream(message({ taskId: task.id, payload }) as never, options(gone.signal))) {
    const ev = e as Event
    if (ev.payload.$case === 'artifactUpdate') read.push(ev.payload.value.artifact.parts[0].content.value)
    if (read.join('') === 'It sets z.') break
  }
  gone.abort()
  await until(async () => (await ledger().settledTotal()) === settled + EXPLAIN_PRICE, 30_000, 'charged')
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  await until(
    async () =>
      ((await v1.getTask({ tenant: '', id: task.id } as never)) as any).status.state ===
      TaskState.TASK_STATE_INPUT_REQUIRED,
    30_000,
    'the task waits for the payment that collects the result',
  )
  // the same payment on the task: the kept result, no second model call, nothing charged twice
  const calls = fake.requests.length
  const events = await all(v1.sendMessageStream(message({ taskId: task.id, payload }) as never, options()))
  expect(events).toHaveLength(1)
  const done = events[0]!.payload.value
  expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(done.artifacts[0].parts[0].content.value.result).toBe('It sets z.')
  expect(fake.requests.length).toBe(calls)
  expect(await ledger().settledTotal()).toBe(settled + EXPLAIN_PRICE)
  await expectBooksBalance()
})

test('tasks/resubscribe follows a task that streams: the same chunks and the end, from another connection', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(v1, 'explain-code', { code: 'w = 4', tier: 'quick' }, payer.key)
  fake.reply({ stream: ['It ', 'sets ', 'w.'], hold: 2 }) // 'It ' reaches the client (a chunk is sent once the next one came)
  const paying = all(v1.sendMessageStream(message({ taskId: task.id, payload }) as never, options()))
  await fake.held()
  await until(
    async () =>
      ((await v1.getTask({ tenant: '', id: task.id } as never)) as any).status.state === TaskState.TASK_STATE_WORKING,
    30_000,
    'the task streams',
  )
  // the follower is registered when its first event (the task as it is) arrives
  const follow = v03.resubscribeTask({ tenant: '', id: task.id } as never, options())
  const first = (await follow.next()).value as Event
  fake.release()
  const [paid, rest] = await Promise.all([paying, all(follow)])
  const followed = [first, ...rest]
  expect(paid.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  // the text so far (replacing), then what came after it joined
  const texts = followed.filter((e) => e.payload.$case === 'artifactUpdate').map((e) => e.payload.value)
  expect(texts[0]).toMatchObject({ append: false })
  expect(chunks(followed)).toEqual(chunks(paid))
  expect(chunks(followed).join('')).toBe('It sets w.')
  expect(followed[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(followed.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(followed.at(-1)!.payload.value.status.message.metadata['x402.payment.receipts'][0].success).toBe(true)
  await expectBooksBalance()
})

test('a structured answer asked again: a working status says so, the next chunk replaces the text; paid once', async () => {
  const first = (await v03.sendMessage(
    message({ data: { skill: 'grammar-fix', input: { text: 'They is here.' } } }) as never,
    options(),
  )) as any
  const required = first.status.message.metadata['x402.payment.required']
  const price = BigInt(required.accepts[0].amount)
  const payer = await fundedPayer(chain, price)
  const payload = await new x402Client()
    .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(payer.key)))
    .createPaymentPayload(required)
  // the first answer does not match the schema: the model is asked once more
  fake.reply({ stream: ['{"corrected":', ' 1}'] }, { stream: ['{"corrected": "They are here.", ', '"changes": []}'] })
  const events = await all(v03.sendMessageStream(message({ taskId: first.id, payload }) as never, options()))
  const kinds = events.map((e) =>
    e.payload.$case === 'artifactUpdate'
      ? `${e.payload.value.append ? '+' : '='}${e.payload.value.artifact.artifactId.endsWith('-text') ? 'text' : 'result'}`
      : `${e.payload.$case}:${e.payload.value.status.state}`,
  )
  const restart = kinds.indexOf(`statusUpdate:${TaskState.TASK_STATE_WORKING}`)
  expect(restart).toBeGreaterThan(1)
  expect(kinds[restart + 1]).toBe('=text') // the new answer replaces the rejected one
  expect(events[restart]!.payload.value.status.message.parts[0].content.value).toContain('produced again')
  const after = chunks(events.slice(restart + 1)).join('')
  expect(JSON.parse(after)).toEqual({ corrected: 'They are here.', changes: [] })
  const result = events.find(
    (e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith('-result'),
  )!.payload.value.artifact.parts[0].content.value
  expect(result).toMatchObject({ corrected: 'They are here.', change_count: 0 })
  expect(events.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  await expectBooksBalance()
})

test('a task whose payment runs is working: another payment message on it gets the task back, no second run; paid once', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(v1, 'explain-code', { code: 'u = 6', tier: 'quick' }, payer.key)
  const settled = await ledger().settledTotal()
  fake.reply({ stream: ['It ', 'sets ', 'u.'], hold: 2 })
  const paying = all(v1.sendMessageStream(message({ taskId: task.id, payload }) as never, options()))
  await fake.held()
  const calls = fake.requests.length
  // the same payment again on the task (a retrying client) while the first one runs, as a send and as a stream
  const again = (await v1.sendMessage(message({ taskId: task.id, payload }) as never, options())) as any
  expect(again.status.state).toBe(TaskState.TASK_STATE_WORKING)
  const streamed = await all(v1.sendMessageStream(message({ taskId: task.id, payload }) as never, options()))
  expect(streamed).toHaveLength(1)
  expect(streamed[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  // it cannot be canceled while it runs
  await expect(v1.cancelTask({ tenant: '', id: task.id } as never)).rejects.toThrow(/only a task waiting/)
  fake.release()
  const events = await paying
  expect(events.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(fake.requests.length).toBe(calls)
  expect(await ledger().settledTotal()).toBe(settled + EXPLAIN_PRICE)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  await expectBooksBalance()
})

test('a stream cut by the handler budget after it sent text completes truncated, charged the price', async () => {
  const required = await (async () => {
    const r = (await v1.sendMessage(
      message({ data: { skill: 'security-audit', input: { code: 'q(`SELECT ${id}`)', tier: 'quick' } } }) as never,
      options(),
    )) as any
    return { task: r, accepts: r.status.message.metadata['x402.payment.required'] }
  })()
  const price = BigInt(required.accepts.accepts[0].amount)
  const payer = await fundedPayer(chain, price)
  const payload = await new x402Client()
    .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(payer.key)))
    .createPaymentPayload(required.accepts)
  const settled = await ledger().settledTotal()
  fake.reply({ stream: ['{"findings": [', '{"title": "SQL'], hold: 2 }) // the model never finishes
  const events = await all(v1.sendMessageStream(message({ taskId: required.task.id, payload }) as never, options()))
  const sent = chunks(events)
  expect(sent).toHaveLength(1) // the second chunk was held back
  const result = events.find(
    (e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith('-result'),
  )!.payload.value.artifact.parts[0].content.value
  expect(result).toMatchObject({ truncated: 'HANDLER_TIMEOUT', result: sent.join('') })
  const last = events.at(-1)!.payload.value
  expect(last.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(last.status.message.metadata['x402.payment.receipts'][0]).toMatchObject({ success: true })
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  expect(await ledger().settledTotal()).toBe(settled + price)
  await expectBooksBalance()
})

test('a non-model skill and a bad request over message/stream; following a finished task is refused', async () => {
  // a utility answers JSON: the stream is the task as a send leaves it (here: the 402)
  const events = await all(
    v1.sendMessageStream(message({ data: { skill: 'slugify', input: { text: 'A b' } } }) as never, options()),
  )
  expect(events).toHaveLength(1)
  expect(events[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  // bad input: a JSON-RPC error with its 4xx, no stream
  const raw = await fetch(`${s.url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'message/stream',
      params: { message: { role: 'user', parts: [{ kind: 'data', data: { skill: 'slugify', input: { text: 4 } } }] } },
    }),
  })
  expect(raw.status).toBe(422)
  expect(((await raw.json()) as any).error).toMatchObject({ code: -32602, data: { code: 'INVALID_INPUT' } })
  await expect(
    all(v1.sendMessageStream(message({ data: { skill: 'no-such-skill', input: {} } }) as never, options())),
  ).rejects.toThrow(/Unknown skill/)
  // tasks/resubscribe on a task that waits for its payment: its one event; on a finished one: an error
  const waiting = events[0]!.payload.value.id
  const followed = await all(v1.resubscribeTask({ tenant: '', id: waiting } as never, options()))
  expect(followed).toHaveLength(1)
  expect(followed[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  await v1.cancelTask({ tenant: '', id: waiting } as never)
  await expect(all(v1.resubscribeTask({ tenant: '', id: waiting } as never, options()))).rejects.toThrow(
    /nothing more to follow/,
  )
})
