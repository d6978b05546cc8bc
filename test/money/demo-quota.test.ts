/** Model outages do not use up the demo quota (issue #13 item 6): a demo call counts only when it succeeded. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { post, startServer, type TestServer } from '../support/server'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'

let fake: FakeOpenAI
let s: TestServer
beforeAll(async () => {
  fake = startFakeOpenAI()
  s = await startServer({ env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', DEMO_DAILY_LIMIT: '5' } })
})
afterAll(async () => {
  await s?.stop()
  fake?.close()
})

test('6 demo calls with the model down are all 502; with the model back a call succeeds and the quota is intact', async () => {
  const codes: number[] = []
  for (let i = 0; i < 6; i++) {
    fake.reply({ status: 500 }, { status: 500 }, { status: 500 }) // the model is down (retries included)
    const r = await post(s.url + '/api/demo/explain', { code: `const f${i} = () => ${i}` })
    codes.push(r.status)
    expect(((await r.json()) as any).error.code).toBeString()
    fake.reset()
  }
  expect(codes).toEqual([502, 502, 502, 502, 502, 502])
  fake.reply({ text: 'It returns a number.', tokens: 42 })
  const ok = await post(s.url + '/api/demo/explain', { code: 'const f = () => 1' })
  expect(ok.status).toBe(200)
  expect(((await ok.json()) as any).demo).toMatchObject({ limit: 5, remaining: 4 })
  const today = (await (await fetch(s.url + '/stats/today')).json()) as any
  expect(today.totals).toMatchObject({ demo_calls: 1, revenue_atomic: '0' })
})
