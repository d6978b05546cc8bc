/**
 * A2A streaming (`message/stream`, `SendStreamingMessage`) paid with x402 `exact`, on the dev chain with a loopback
 * model: the official A2A client's `sendMessageStream` gets the task `input-required` with `x402.payment.required`,
 * signs it with the official x402 client, and sends the payment on the task as a stream: the task `working`, the
 * answer's chunks as artifact updates, the result artifact, the task `completed` with the receipt. The money rules
 * are the HTTP stream's (docs/streaming.md): a client that leaves mid-answer pays nothing (the model call is
 * cancelled, the task waits for a payment again); a stream cut by the handler's budget after it sent text ends with a
 * truncated result, charged the price. Books after each test: the payee's delta = /stats revenue = the ledger.
 */
import { expect, test } from 'bun:test'
import { TaskState } from '@a2a-js/sdk'
import type { Client } from '@a2a-js/sdk/client'
import { x402Client } from '@x402/core/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { usdcBalance } from '../../runtime/chain/usdc'
import {
  type A2aEvent,
  a2aMessage,
  a2aOptions,
  a2aRig,
  allEvents,
  getTask,
  textChunks,
  untilTaskState,
} from '../support/a2a-rig'
import { withBudget } from '../support/entries'
import { fundedPayer } from '../support/on-chain'
import { until } from '../support/until'

const EXPLAIN_PRICE = 10_000n // explain-code, quick
/** security-audit with a 2 s budget here (45 s in the catalog): the budget cuts a stream the model holds open. */
const BUDGET_MS = 2000
const rig = a2aRig({ entries: withBudget('security-audit', BUDGET_MS), model: true })

const ledger = () => rig.server.booted.storage.ledger

/** The first message as a stream: one event, the task waiting for its payment; and the payment signed for it. */
async function askToPay(client: Client, skill: string, input: unknown, key: Hex) {
  const events = await allEvents(client.sendMessageStream(a2aMessage({ data: { skill, input } }), a2aOptions()))
  expect(events).toHaveLength(1)
  const task = events[0]!.payload.value
  expect(events[0]!.payload.$case).toBe('task')
  expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  const meta = task.status.message.metadata
  expect(meta['x402.payment.status']).toBe('payment-required')
  const signer = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key)))
  return { task, payload: await signer.createPaymentPayload(meta['x402.payment.required']) }
}

test('v1.0 client: paid on the task as a stream: working, the chunks, the result artifact, completed with the receipt', async () => {
  expect(rig.card.capabilities.streaming).toBe(true)
  const payer = await fundedPayer(rig.chain, EXPLAIN_PRICE)
  const input = { code: 'const add = (a, b) => a + b', tier: 'quick' }
  const { task, payload } = await askToPay(rig.v1, 'explain-code', input, payer.key)
  rig.fake.reply({ stream: ['It ', 'adds ', 'two numbers.'] })
  const events = await allEvents(rig.v1.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions()))
  expect(events[0]!.payload.$case).toBe('task')
  expect(events[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(events[0]!.payload.value.status.message.metadata['x402.payment.status']).toBe('payment-verified')
  expect(textChunks(events).join('')).toBe('It adds two numbers.')
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
  expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(0n)
  // GetTask answers the completed task with its result
  const got = await getTask(rig.v1, task.id)
  expect(got.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(got.artifacts[0].parts[0].content.value.result).toBe('It adds two numbers.')
  await rig.expectBooks()
})

test('v0.3 client (message/stream): a client that leaves mid-answer pays nothing; the task waits; paid again, it runs once', async () => {
  const payer = await fundedPayer(rig.chain, EXPLAIN_PRICE)
  const input = { code: 'y = 2', tier: 'quick' }
  const { task, payload } = await askToPay(rig.v03, 'explain-code', input, payer.key)
  const settled = await ledger().settledTotal()
  // the provider pauses after its last content chunk, before the finish chunk: the answer is not complete
  rig.fake.reply({ stream: ['One ', 'two ', 'three'], hold: 3 })
  const gone = new AbortController()
  const read: string[] = []
  for await (const e of rig.v03.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions(gone.signal))) {
    const ev = e as A2aEvent
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
  await until(() => !rig.fake.holding, 30_000, 'the model call cancelled')
  expect(await ledger().settledTotal()).toBe(settled)
  expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(EXPLAIN_PRICE)
  // the task waits for a payment again, with the requirements
  const waiting = await untilTaskState(
    rig.v03,
    task.id,
    TaskState.TASK_STATE_INPUT_REQUIRED,
    'the task back to input-required',
  )
  expect(waiting.status.message.metadata['x402.payment.status']).toBe('payment-required')
  expect(waiting.status.message.metadata['x402.payment.required'].accepts[0].amount).toBe(String(EXPLAIN_PRICE))
  expect(waiting.artifacts).toEqual([])
  // the same payment again (a failed run may run again): streamed to the end this time, charged once
  rig.fake.reply({ stream: ['One ', 'two.'] })
  const events = await allEvents(rig.v03.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions()))
  const last = events.at(-1)!.payload.value
  expect(last.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(textChunks(events).join('')).toBe('One two.')
  expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(0n)
  expect(await ledger().settledTotal()).toBe(settled + EXPLAIN_PRICE)
  await rig.expectBooks()
})

test('a client that leaves before any answer (a send, a stream before its first chunk): nothing charged; the task waits again', async () => {
  const payer = await fundedPayer(rig.chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(rig.v1, 'explain-code', { code: 'v = 5', tier: 'quick' }, payer.key)
  const settled = await ledger().settledTotal()
  for (const streamed of [false, true]) {
    const calls = rig.fake.requests.length
    // the model never answers (a stream: not even its first chunk) until its caller goes
    rig.fake.reply(streamed ? { stream: ['never'], hold: 0 } : { hang: true })
    const gone = new AbortController()
    const sent = streamed
      ? allEvents(rig.v1.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions(gone.signal)))
      : rig.v1.sendMessage(a2aMessage({ taskId: task.id, payload }), a2aOptions(gone.signal))
    const left = sent.then(
      () => 'answered',
      () => 'left',
    )
    await until(() => rig.fake.requests.length > calls, 30_000, 'the model called')
    gone.abort()
    expect(await left).toBe('left')
    await untilTaskState(rig.v1, task.id, TaskState.TASK_STATE_INPUT_REQUIRED, 'the task back to input-required')
    await until(() => !rig.fake.holding, 30_000, 'the model call cancelled')
    const waiting = await getTask(rig.v1, task.id)
    expect(waiting.status.message.metadata['x402.payment.status']).toBe('payment-required')
    expect(waiting.status.message.metadata['x402.payment.required'].accepts[0].amount).toBe(String(EXPLAIN_PRICE))
    expect(await ledger().settledTotal()).toBe(settled)
    expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(EXPLAIN_PRICE)
  }
  await rig.expectBooks()
})

test('every chunk read, then the client leaves before the result: charged; the same payment on the task collects the kept result', async () => {
  const payer = await fundedPayer(rig.chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(rig.v1, 'explain-code', { code: 'z = 3', tier: 'quick' }, payer.key)
  const settled = await ledger().settledTotal()
  // the provider pauses after its finish chunk (before usage and [DONE]): the answer is complete
  rig.fake.reply({ stream: ['It ', 'sets z.'], hold: 'finish', usage: false })
  const gone = new AbortController()
  const read: string[] = []
  for await (const e of rig.v1.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions(gone.signal))) {
    const ev = e as A2aEvent
    if (ev.payload.$case === 'artifactUpdate') read.push(ev.payload.value.artifact.parts[0].content.value)
    if (read.join('') === 'It sets z.') break
  }
  gone.abort()
  await until(async () => (await ledger().settledTotal()) === settled + EXPLAIN_PRICE, 30_000, 'charged')
  expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(0n)
  await untilTaskState(
    rig.v1,
    task.id,
    TaskState.TASK_STATE_INPUT_REQUIRED,
    'the task waits for the payment that collects the result',
  )
  // the same payment on the task: the kept result, no second model call, nothing charged twice
  const calls = rig.fake.requests.length
  const events = await allEvents(rig.v1.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions()))
  expect(events).toHaveLength(1)
  const done = events[0]!.payload.value
  expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(done.artifacts[0].parts[0].content.value.result).toBe('It sets z.')
  expect(rig.fake.requests.length).toBe(calls)
  expect(await ledger().settledTotal()).toBe(settled + EXPLAIN_PRICE)
  await rig.expectBooks()
})

test('tasks/resubscribe follows a task that streams: the same chunks and the end, from another connection', async () => {
  const payer = await fundedPayer(rig.chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(rig.v1, 'explain-code', { code: 'w = 4', tier: 'quick' }, payer.key)
  rig.fake.reply({ stream: ['It ', 'sets ', 'w.'], hold: 2 }) // 'It ' reaches the client (a chunk is sent once the next one came)
  const paying = allEvents(rig.v1.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions()))
  await rig.fake.held()
  await untilTaskState(rig.v1, task.id, TaskState.TASK_STATE_WORKING, 'the task streams')
  // the follower is registered when its first event (the task as it is) arrives
  const follow = rig.v03.resubscribeTask({ tenant: '', id: task.id }, a2aOptions())
  const first = (await follow.next()).value as A2aEvent
  rig.fake.release()
  const [paid, rest] = await Promise.all([paying, allEvents(follow)])
  const followed = [first, ...rest]
  expect(paid.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  // the text so far (replacing), then what came after it joined
  const texts = followed.filter((e) => e.payload.$case === 'artifactUpdate').map((e) => e.payload.value)
  expect(texts[0]).toMatchObject({ append: false })
  expect(textChunks(followed)).toEqual(textChunks(paid))
  expect(textChunks(followed).join('')).toBe('It sets w.')
  expect(followed[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  expect(followed.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(followed.at(-1)!.payload.value.status.message.metadata['x402.payment.receipts'][0].success).toBe(true)
  await rig.expectBooks()
})

test('a structured answer asked again: a working status says so, the next chunk replaces the text; paid once', async () => {
  const first = (await rig.v03.sendMessage(
    a2aMessage({ data: { skill: 'grammar-fix', input: { text: 'They is here.' } } }),
    a2aOptions(),
  )) as any
  const required = first.status.message.metadata['x402.payment.required']
  const price = BigInt(required.accepts[0].amount)
  const payer = await fundedPayer(rig.chain, price)
  const payload = await new x402Client()
    .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(payer.key)))
    .createPaymentPayload(required)
  // the first answer does not match the schema: the model is asked once more
  rig.fake.reply(
    { stream: ['{"corrected":', ' 1}'] },
    { stream: ['{"corrected": "They are here.", ', '"changes": []}'] },
  )
  const events = await allEvents(rig.v03.sendMessageStream(a2aMessage({ taskId: first.id, payload }), a2aOptions()))
  const kinds = events.map((e) =>
    e.payload.$case === 'artifactUpdate'
      ? `${e.payload.value.append ? '+' : '='}${e.payload.value.artifact.artifactId.endsWith('-text') ? 'text' : 'result'}`
      : `${e.payload.$case}:${e.payload.value.status.state}`,
  )
  const restart = kinds.indexOf(`statusUpdate:${TaskState.TASK_STATE_WORKING}`)
  expect(restart).toBeGreaterThan(1)
  expect(kinds[restart + 1]).toBe('=text') // the new answer replaces the rejected one
  expect(events[restart]!.payload.value.status.message.parts[0].content.value).toContain('produced again')
  const after = textChunks(events.slice(restart + 1)).join('')
  expect(JSON.parse(after)).toEqual({ corrected: 'They are here.', changes: [] })
  const result = events.find(
    (e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith('-result'),
  )!.payload.value.artifact.parts[0].content.value
  expect(result).toMatchObject({ corrected: 'They are here.', change_count: 0 })
  expect(events.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(0n)
  await rig.expectBooks()
})

test('a task whose payment runs is working: another payment message on it gets the task back, no second run; paid once', async () => {
  const payer = await fundedPayer(rig.chain, EXPLAIN_PRICE)
  const { task, payload } = await askToPay(rig.v1, 'explain-code', { code: 'u = 6', tier: 'quick' }, payer.key)
  const settled = await ledger().settledTotal()
  rig.fake.reply({ stream: ['It ', 'sets ', 'u.'], hold: 2 })
  const paying = allEvents(rig.v1.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions()))
  await rig.fake.held()
  const calls = rig.fake.requests.length
  // the same payment again on the task (a retrying client) while the first one runs, as a send and as a stream
  const again = (await rig.v1.sendMessage(a2aMessage({ taskId: task.id, payload }), a2aOptions())) as any
  expect(again.status.state).toBe(TaskState.TASK_STATE_WORKING)
  const streamed = await allEvents(rig.v1.sendMessageStream(a2aMessage({ taskId: task.id, payload }), a2aOptions()))
  expect(streamed).toHaveLength(1)
  expect(streamed[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING)
  // it cannot be canceled while it runs
  await expect(rig.v1.cancelTask({ tenant: '', id: task.id } as never)).rejects.toThrow(/only a task waiting/)
  rig.fake.release()
  const events = await paying
  expect(events.at(-1)!.payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(rig.fake.requests.length).toBe(calls)
  expect(await ledger().settledTotal()).toBe(settled + EXPLAIN_PRICE)
  expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(0n)
  await rig.expectBooks()
})

test('a stream cut by the handler budget after it sent text completes truncated, charged the price', async () => {
  const required = await (async () => {
    const r = (await rig.v1.sendMessage(
      a2aMessage({ data: { skill: 'security-audit', input: { code: 'q(`SELECT ${id}`)', tier: 'quick' } } }),
      a2aOptions(),
    )) as any
    return { task: r, accepts: r.status.message.metadata['x402.payment.required'] }
  })()
  const price = BigInt(required.accepts.accepts[0].amount)
  const payer = await fundedPayer(rig.chain, price)
  const payload = await new x402Client()
    .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(payer.key)))
    .createPaymentPayload(required.accepts)
  const settled = await ledger().settledTotal()
  rig.fake.reply({ stream: ['{"findings": [', '{"title": "SQL'], hold: 2 }) // the model never finishes
  const events = await allEvents(
    rig.v1.sendMessageStream(a2aMessage({ taskId: required.task.id, payload }), a2aOptions()),
  )
  const sent = textChunks(events)
  expect(sent).toHaveLength(1) // the second chunk was held back
  const result = events.find(
    (e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith('-result'),
  )!.payload.value.artifact.parts[0].content.value
  expect(result).toMatchObject({ truncated: 'HANDLER_TIMEOUT', result: sent.join('') })
  const last = events.at(-1)!.payload.value
  expect(last.status.state).toBe(TaskState.TASK_STATE_COMPLETED)
  expect(last.status.message.metadata['x402.payment.receipts'][0]).toMatchObject({ success: true })
  expect(await usdcBalance(rig.chain.rpcUrl, payer.address)).toBe(0n)
  expect(await ledger().settledTotal()).toBe(settled + price)
  await rig.expectBooks()
})

test('a non-model skill and a bad request over message/stream; following a finished task is refused', async () => {
  // a utility answers JSON: the stream is the task as a send leaves it (here: the 402)
  const events = await allEvents(
    rig.v1.sendMessageStream(a2aMessage({ data: { skill: 'slugify', input: { text: 'A b' } } }), a2aOptions()),
  )
  expect(events).toHaveLength(1)
  expect(events[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  // bad input: a JSON-RPC error with its 4xx, no stream
  const raw = await fetch(`${rig.server.url}/a2a`, {
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
    allEvents(rig.v1.sendMessageStream(a2aMessage({ data: { skill: 'no-such-skill', input: {} } }), a2aOptions())),
  ).rejects.toThrow(/Unknown skill/)
  // tasks/resubscribe on a task that waits for its payment: its one event; on a finished one: an error
  const waiting = events[0]!.payload.value.id
  const followed = await allEvents(rig.v1.resubscribeTask({ tenant: '', id: waiting }, a2aOptions()))
  expect(followed).toHaveLength(1)
  expect(followed[0]!.payload.value.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
  await rig.v1.cancelTask({ tenant: '', id: waiting } as never)
  await expect(allEvents(rig.v1.resubscribeTask({ tenant: '', id: waiting }, a2aOptions()))).rejects.toThrow(
    /nothing more to follow/,
  )
})
