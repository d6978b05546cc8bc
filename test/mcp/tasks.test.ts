/**
 * The MCP task store (runtime/mcp/tasks.ts) on its own: bounded by count, kept bytes and age (a clock the test
 * moves), ids that cannot be guessed, and how a call becomes a task (only once its payment is admitted, or at
 * once where the 2025-11-25 client asked for one). The paid flows themselves: test/mcp/eras.test.ts.
 */
import { expect, test } from 'bun:test'
import type { ToolResult } from '../../runtime/mcp/results'
import { startTask, TaskStore, TasksFull, type McpTask } from '../../runtime/mcp/tasks'

const result = (text = 'ok', meta?: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text }],
  ...(meta ? { _meta: meta } : {}),
})
const paid = (text = 'ok') => result(text, { 'x402/payment-response': { success: true } })
const toError = (e: unknown) => ({ code: -32603, message: String(e) })
const never = new AbortController().signal

test('ids are 256 random bits (base64url), never repeated', () => {
  const store = new TaskStore({ maxTasks: 2000, maxKeptBytes: 1 << 20, ttlMs: 60_000 })
  const ids = new Set<string>()
  for (let i = 0; i < 1000; i++) ids.add(store.open()!.id)
  expect(ids.size).toBe(1000)
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(store.get('not-an-id')).toBeUndefined()
  expect(store.get(undefined)).toBeUndefined()
})

test('count: a full store opens no task, and a call then runs synchronously on the request', async () => {
  const store = new TaskStore({ maxTasks: 2, maxKeptBytes: 1 << 20, ttlMs: 60_000 })
  expect(store.open()).not.toBeNull()
  expect(store.open()).not.toBeNull()
  expect(store.open()).toBeNull()
  const request = new AbortController().signal
  let seen: AbortSignal | undefined
  const out = await startTask(
    store,
    request,
    false,
    async (signal, admitted) => {
      seen = signal
      admitted()
      return paid('sync')
    },
    toError,
  )
  expect(out).toEqual({ result: paid('sync') })
  expect(seen).toBe(request)
  expect(store.size).toBe(2)
  // Where the client asked for a task (2025-11-25), a full store refuses the call before it runs (nothing paid).
  let ran = false
  const asked = startTask(
    store,
    request,
    true,
    async () => {
      ran = true
      return paid()
    },
    toError,
  )
  await expect(asked).rejects.toBeInstanceOf(TasksFull)
  expect(ran).toBe(false)
})

test('bytes: once the kept results weigh the limit, no new task opens until they age out', () => {
  let now = 0
  const store = new TaskStore({ maxTasks: 10, maxKeptBytes: 1000, ttlMs: 60_000 }, () => now)
  const task = store.open()!
  store.complete(task, result('x'.repeat(2000)))
  expect(store.keptBytes).toBeGreaterThan(2000)
  expect(store.open()).toBeNull()
  now = 60_001
  expect(store.get(task.id)).toBeUndefined()
  expect(store.keptBytes).toBe(0)
  expect(store.open()).not.toBeNull()
})

test('age: a task is dropped past its TTL; a running one is cancelled first (its call aborted)', async () => {
  let now = 0
  const store = new TaskStore({ maxTasks: 10, maxKeptBytes: 1 << 20, ttlMs: 1000 }, () => now)
  const running = store.open()!
  now = 500
  const done = store.open()!
  store.complete(done, result())
  now = 1001
  expect(store.get(running.id)).toBeUndefined()
  expect(running.abort.signal.aborted).toBe(true)
  expect(running.status).toBe('cancelled')
  await running.ended
  // Its call ending later keeps nothing in the store.
  store.complete(running, result('late'))
  expect(store.keptBytes).toBe(store.get(done.id)!.bytes)
  expect(store.get(done.id)?.status).toBe('completed')
  now = 1501
  expect(store.get(done.id)).toBeUndefined()
  expect(store.size).toBe(0)
})

test('a call answered before its payment is admitted is no task (the PaymentRequired comes back at once)', async () => {
  const store = new TaskStore()
  const out = await startTask(store, never, false, async () => result('payment required'), toError)
  expect(out).toEqual({ result: result('payment required') })
  expect(store.size).toBe(0)
  // 2025-11-25, where the client asked for a task: the same answer as a task completed at once.
  const asked = await startTask(store, never, true, async () => result('payment required'), toError)
  expect('task' in asked && asked.task.status).toBe('completed')
  expect('task' in asked && asked.task.result).toEqual(result('payment required'))
})

test('an admitted call is a working task until its result is in; then completed with it', async () => {
  const store = new TaskStore()
  let finish!: (r: ToolResult) => void
  const out = await startTask(
    store,
    never,
    false,
    (_signal, admitted) => {
      admitted()
      return new Promise<ToolResult>((r) => {
        finish = r
      })
    },
    toError,
  )
  const task = (out as { task: McpTask }).task
  expect(task.status).toBe('working')
  expect(store.get(task.id)).toBe(task)
  finish(paid('the answer'))
  await task.ended
  expect(task.status).toBe('completed')
  expect(task.result).toEqual(paid('the answer'))
})

test('the request leaving before admission aborts the call; after admission it does not', async () => {
  const store = new TaskStore()
  const request = new AbortController()
  let signal!: AbortSignal
  const pending = startTask(
    store,
    request.signal,
    false,
    (s) => {
      signal = s
      return new Promise<ToolResult>((resolve) => s.addEventListener('abort', () => resolve(result('gone'))))
    },
    toError,
  )
  request.abort()
  expect(signal.aborted).toBe(true)
  expect(await pending).toEqual({ result: result('gone') })

  const later = new AbortController()
  let admittedSignal!: AbortSignal
  const out = await startTask(
    store,
    later.signal,
    false,
    (s, admitted) => {
      admittedSignal = s
      admitted()
      return new Promise<ToolResult>(() => {})
    },
    toError,
  )
  later.abort()
  expect(admittedSignal.aborted).toBe(false)
  expect((out as { task: McpTask }).task.status).toBe('working')
})

test('cancel: an uncharged end stays cancelled; a result settled before the cancel took effect is completed', async () => {
  const store = new TaskStore()
  const run = (r: ToolResult) => async (signal: AbortSignal, admitted: () => void) => {
    admitted()
    await new Promise((resolve) => signal.addEventListener('abort', resolve))
    return r
  }
  const a = ((await startTask(store, never, false, run(result('released')), toError)) as { task: McpTask }).task
  store.cancel(a)
  await a.ended
  expect(a.status).toBe('cancelled')
  expect(a.result).toBeUndefined()
  const b = ((await startTask(store, never, false, run(paid('settled')), toError)) as { task: McpTask }).task
  store.cancel(b)
  await b.ended
  expect(b.status).toBe('completed')
  expect(b.result).toEqual(paid('settled'))
})

test('a call that throws after admission is a failed task with a JSON-RPC error', async () => {
  const store = new TaskStore()
  const out = await startTask(
    store,
    never,
    false,
    async (_s, admitted) => {
      admitted()
      throw new Error('boom')
    },
    toError,
  )
  const task = (out as { task: McpTask }).task
  await task.ended
  expect(task.status).toBe('failed')
  expect(task.error).toEqual({ code: -32603, message: 'Error: boom' })
})
