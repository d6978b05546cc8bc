import { expect, test } from 'bun:test'
import handler from './handler'
import { testContext } from '../../runtime/sdk'

test('v4: version and RFC 9562 variant bits, distinct values, formatting options', async () => {
  const { uuids } = (await handler({ version: 4, count: 100 } as never, testContext())) as { uuids: string[] }
  expect(new Set(uuids).size).toBe(100)
  for (const u of uuids) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  const {
    uuids: [u],
  } = (await handler({ version: 4, count: 1, uppercase: true, hyphens: false } as never, testContext())) as {
    uuids: string[]
  }
  expect(u).toMatch(/^[0-9A-F]{12}4[0-9A-F]{3}[89AB][0-9A-F]{15}$/)
})
