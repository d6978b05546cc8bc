/**
 * The model client's streaming (`stream` on a ModelRequest): `stream: true` with usage in the last chunk on the
 * loopback OpenAI-compatible server; chunks reach the sink in order, the result adds them up; a stream cut off
 * without a finish reason is a 502, never a short answer; a rejected structured answer restarts the stream;
 * `trimmedStream` sends exactly the trimmed text.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test'
import { createModelClient } from '../../runtime/model'
import { ServiceError, trimmedStream, type StreamSink } from '../../runtime/sdk'
import { startFakeOpenAI } from '../support/fake-openai'

const fake = startFakeOpenAI()
afterAll(() => fake.close())
beforeEach(() => fake.reset())

const client = () => createModelClient({ baseUrl: fake.url, apiKey: 'test', model: 'gpt-4.1-mini', timeoutMs: 5000 })

function recorder() {
  const log: string[] = []
  const sink: StreamSink = { delta: (t) => void log.push(t), restart: (r) => void log.push(`<restart ${r}>`) }
  return { log, sink }
}

test('chunks reach the sink as they come; text, usage (last chunk) and model as without streaming', async () => {
  fake.reply({ stream: ['Hel', 'lo, ', 'world'], model: 'gpt-4.1-mini-2025', tokens: 99 })
  const { log, sink } = recorder()
  const r = await client().complete({ system: 's', user: 'u', stream: sink })
  expect(log).toEqual(['Hel', 'lo, ', 'world'])
  expect(r).toEqual({ text: 'Hello, world', model: 'gpt-4.1-mini-2025', tokensUsed: 99 })
  expect(fake.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } })
})

test('a stream cut off (connection broken, or ended without a finish reason) is a retryable 502', async () => {
  for (const cut of [{ breakAfter: 2 }, { endAfter: 2 }]) {
    fake.reply({ stream: ['partial ', 'answer', 'never'], ...cut })
    const { log, sink } = recorder()
    const e = await client()
      .complete({ system: 's', user: 'u', stream: sink })
      .then(
        () => undefined,
        (x) => x,
      )
    expect(e).toBeInstanceOf(ServiceError)
    expect(e).toMatchObject({ status: 502, code: 'UPSTREAM_ERROR', retryable: true })
    expect(log.join('')).not.toContain('never')
  }
})

test('a structured answer rejected once restarts the stream, then streams the accepted one', async () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
  fake.reply({ stream: ['{"n":', '"x"}'] }, { stream: ['{"n":', '7}'] })
  const { log, sink } = recorder()
  const r = await client().complete({ system: 's', user: 'u', jsonSchema: schema, stream: sink })
  expect(r.json).toEqual({ n: 7 })
  expect(log.slice(0, 2)).toEqual(['{"n":', '"x"}'])
  expect(log[2]).toStartWith('<restart the JSON does not match the schema')
  expect(log.slice(3)).toEqual(['{"n":', '7}'])
})

test('trimmedStream sends exactly text.trim(), whatever the chunking', () => {
  const cases = [['  \n', ' Hi', ' there ', '\n', ' ', 'you', '  \n\n'], ['\n\nA'], ['x  ', '  ', 'y'], [' ', '  ']]
  for (const chunks of cases) {
    const out: string[] = []
    const s = trimmedStream({ delta: (t) => void out.push(t), restart: () => {} })!
    for (const c of chunks) s.delta(c)
    expect(out.join('')).toBe(chunks.join('').trim())
  }
  expect(trimmedStream(undefined)).toBeUndefined()
})
