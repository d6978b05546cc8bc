/**
 * A wrong body costs nothing, not even a signature: an unpaid call whose body the paid call would refuse gets that
 * 400/415/422 now (with what to send), over HTTP and MCP; an empty body or exactly `{}` still reads the price (402).
 * No facilitator is ever reached (refusingFacilitator counts calls).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { decodeB64Json, refusingFacilitator, startServer, type TestServer } from '../support/server'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { mcpClient } from '../mcp/client'

let s: TestServer
let fake: FakeOpenAI
let c: Client
const facilitator = refusingFacilitator()

beforeAll(async () => {
  fake = startFakeOpenAI()
  s = await startServer({ facilitator, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' } })
  c = await mcpClient(s.url)
})
afterAll(async () => {
  await c?.close()
  await s?.stop()
  fake?.close()
  expect(facilitator.calls).toBe(0)
  expect(fake.requests).toHaveLength(0)
})

const errorOf = async (r: Response) => (await r.json()) as { error: { code: string; message: string; details?: any } }

describe('HTTP: refused before the 402', () => {
  test('explain-code without `code` is a 422 naming the field, with no PAYMENT-REQUIRED', async () => {
    const r = await s.post('/api/v1/explain-code', { language: 'python' })
    expect(r.status).toBe(422)
    expect(r.headers.get('payment-required')).toBeNull()
    const { error } = await errorOf(r)
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/code' })]))
  })

  test('malformed JSON is a 400, a non-JSON content type a 415', async () => {
    const bad = await s.post('/api/v1/slugify', 'not json')
    expect(bad.status).toBe(400)
    const { error } = await errorOf(bad)
    expect(error.code).toBe('INVALID_JSON')
    // What to send: the service's own example body.
    expect((error as any).example).toEqual({ text: expect.any(String) })
    const form = await s.post('/api/v1/slugify', 'text=hi', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(form.status).toBe(415)
    expect(form.headers.get('payment-required')).toBeNull()
  })

  test('an unknown enum value is a 422 listing the allowed values', async () => {
    const r = await s.post('/api/v1/hash-digest', { text: 'abc', algo: 'sha999' })
    expect(r.status).toBe(422)
    const { error } = await errorOf(r)
    expect(JSON.stringify(error.details)).toContain('sha256')
  })

  test('a wrong type, a non-object body and a bad tier are refused unpaid too', async () => {
    expect((await s.post('/api/v1/slugify', { text: 7 })).status).toBe(422)
    expect((await s.post('/api/v1/slugify', '[1,2]')).status).toBe(422)
    expect((await s.post('/api/v1/explain-code?tier=gold', { code: 'x' })).status).toBe(422)
  })
})

describe('HTTP: the price is still one probe away', () => {
  test('no body, an empty body, `{}` and a valid body get the 402, which says bodies are checked first', async () => {
    const probes: Array<RequestInit> = [
      { method: 'POST' },
      { method: 'POST', body: '', headers: { 'content-type': 'application/json' } },
      { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } },
      // Discovery probes often send `{}` with no content type at all.
      { method: 'POST', body: '{}' },
      {
        method: 'POST',
        body: '{"code":"print(1)","language":"python"}',
        headers: { 'content-type': 'application/json' },
      },
    ]
    for (const init of probes) {
      const r = await s.fetch('/api/v1/explain-code', init)
      expect(r.status).toBe(402)
      expect(decodeB64Json(r.headers.get('payment-required')).accepts[0].amount).toBe('50000')
      const body = (await r.json()) as { validation: string }
      expect(body.validation).toContain('400/415/422')
    }
  })

  test('the same valid body twice (the check is remembered) is still a 402, and a bad one after it still a 422', async () => {
    for (let i = 0; i < 2; i++) expect((await s.post('/api/v1/slugify', { text: 'Hello' })).status).toBe(402)
    const form = await s.post('/api/v1/slugify', JSON.stringify({ text: 'Hello' }), { 'content-type': 'text/plain' })
    expect(form.status).toBe(415)
    expect((await s.post('/api/v1/slugify', { text: 'Hello', max_length: -1 })).status).toBe(422)
  })

  test('/llms.txt says a wrong body is answered before any payment', async () => {
    const txt = await (await s.fetch('/llms.txt')).text()
    expect(txt).toContain('before any payment')
    expect(txt).toContain('An empty body or `{}` only asks for the price')
  })
})

describe('MCP: the same order', () => {
  const call = (name: string, args?: Record<string, unknown>) =>
    c.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; structuredContent?: any }>

  test('invalid arguments are an isError with the error body, never a PaymentRequired', async () => {
    const r = await call('explain-code', { language: 'python' })
    expect(r.isError).toBe(true)
    expect(r.structuredContent.error.code).toBe('INVALID_INPUT')
    expect(r.structuredContent.accepts).toBeUndefined()
    const e = await call('hash-digest', { text: 'abc', algo: 'sha999' })
    expect(e.structuredContent.error.code).toBe('INVALID_INPUT')
  })

  test('no arguments, `{}` and valid arguments get the PaymentRequired', async () => {
    for (const args of [undefined, {}, { code: 'print(1)' }]) {
      const r = await call('explain-code', args)
      expect(r.isError).toBe(true)
      expect(r.structuredContent.accepts[0].amount).toBe('50000')
    }
  })
})
