import { expect, test } from 'bun:test'
import handler from './handler'
import { testContext } from '../../runtime/sdk'

const run = (input: object) => handler(input as never, testContext()) as Promise<{ text: string }>
test('deterministic per seed, different across seeds, vocabulary only', async () => {
  expect((await run({ paragraphs: 2, seed: 42 })).text).toBe((await run({ paragraphs: 2, seed: 42 })).text)
  expect((await run({ paragraphs: 2, seed: 42 })).text).not.toBe((await run({ paragraphs: 2, seed: 43 })).text)
  const t = (await run({ words: 200, seed: 9, start_with_lorem: false })).text
  expect(t.startsWith('Lorem ipsum dolor sit amet')).toBe(false)
  for (const w of t.toLowerCase().replace(/[.]/g, '').split(/\s+/)) expect(w).toMatch(/^[a-z]+$/)
})
