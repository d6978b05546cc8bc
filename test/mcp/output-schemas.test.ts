/**
 * MCP clients validate every structuredContent against the tool's outputSchema with ajv (formats included), after
 * the payment has settled: a result that ajv rejects would be paid for and then thrown away by the client. This
 * runs every service fixture through its handler (as test/services/fixtures.test.ts does) and checks the real answer with
 * the MCP SDK's own validator against the outputSchema published in tools/list.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { entries } from '../support/entries'
import { prepareInput } from '../../runtime/input/validate'
import { ServiceError, testContext } from '../../runtime/sdk'
import { startApp, type TestServer } from '../support/server'
import { mcpClient } from './client'

let s: TestServer
let c: Client
beforeAll(async () => {
  s = await startApp()
  c = await mcpClient(s, '?tools=all')
})
afterAll(async () => {
  await c?.close()
  await s?.stop()
})

test('every fixture answer passes the MCP client validator of its tool outputSchema', async () => {
  const { tools } = await c.listTools()
  const byName = new Map(tools.map((t) => [t.name, t]))
  const ajv = new AjvJsonSchemaValidator()
  const failures: string[] = []
  let checked = 0
  for (const entry of entries.filter((e) => e.handler)) {
    const file = join(import.meta.dir, '..', '..', 'services', entry.folder, 'fixtures.json')
    if (!existsSync(file)) continue
    const tool = byName.get(entry.manifest.slug)
    expect(tool).toBeDefined()
    if (!tool!.outputSchema) continue
    const validate = ajv.getValidator(tool!.outputSchema)
    const m = entry.manifest
    for (const f of JSON.parse(readFileSync(file, 'utf8')) as Array<{
      name: string
      input: unknown
      expectError?: unknown
      now?: string
    }>) {
      if (f.expectError) continue
      const tier = m.kind === 'tiered' ? 'standard' : (Object.keys(m.pricing)[0] as 'flat')
      const ctx = testContext({ service: m.slug, tier, now: f.now ? () => new Date(f.now!) : () => new Date() })
      let out: unknown
      try {
        out = await entry.handler!(prepareInput(m.input, f.input) as never, ctx)
      } catch (e) {
        if (e instanceof ServiceError) continue // fixtures.test.ts owns the handler's behaviour
        throw e
      }
      checked++
      const r = validate(out)
      if (!r.valid) failures.push(`${m.slug} / ${f.name}: ${r.errorMessage}`)
    }
  }
  expect(checked).toBeGreaterThan(300)
  expect(failures).toEqual([])
}, 120_000)
