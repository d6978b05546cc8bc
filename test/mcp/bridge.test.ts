/**
 * scripts/mcp-bridge.mjs as a desktop agent runs it: a child process speaking MCP over stdio, under Node (`node`
 * from the PATH, what `"command": "node"` in a desktop config runs) and under Bun, paying the remote /mcp on a
 * real local chain with its own key, within a per-call cap; and its errors reach the client instead of a silent exit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { TestServer } from '../support/server'
import { startServerOnChain, stopAndTally } from '../support/on-chain'
import { withEcho } from '../support/extra-service'

let chain: DevChain
let s: TestServer
let payeeBefore: bigint
const agents: Client[] = []

const BRIDGE = 'scripts/mcp-bridge.mjs'
const RUNTIMES = { node: 'node', bun: process.execPath } as const

/** A desktop agent connected to the bridge run by `command`, with `env` as its configuration. */
async function agentVia(command: string, env: Record<string, string>): Promise<Client> {
  const agent = new Client({ name: 'desktop-agent', version: '1.0.0' })
  await agent.connect(
    new StdioClientTransport({
      command,
      args: [BRIDGE],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'pipe',
    }),
  )
  agents.push(agent)
  return agent
}
const configured = (extra: Record<string, string> = {}) => ({
  X402_MCP_URL: s.url + '/mcp',
  X402_PRIVATE_KEY: chain.payer.privateKey,
  X402_MAX_USDC: '0.05',
  ...extra,
})

beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, { entries: withEcho() })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
}, 60_000)
afterAll(async () => {
  for (const a of agents) await a.close()
  const books = await stopAndTally(chain, [s], payeeBefore)
  await chain?.stop()
  // Under each runtime: one call by its own name and one through call_service, 1000 atomic USDC each.
  expect(books.delta).toBe(4n * 1000n)
  expect(books.stats).toBe(books.delta)
  expect(books.ledger).toBe(books.delta)
})

const balances = async () => ({
  payer: await usdcBalance(chain.rpcUrl, chain.payer.address),
  payee: await usdcBalance(chain.rpcUrl, chain.payee.address),
})

for (const [runtime, command] of Object.entries(RUNTIMES)) {
  describe(`under ${runtime}`, () => {
    test('lists the small default set and pays calls with its key: result, receipt, exact USDC', async () => {
      const agent = await agentVia(command, configured())
      const { tools } = await agent.listTools()
      const names = tools.map((t) => t.name)
      expect(names).toEqual(expect.arrayContaining(['call_service', 'search_services', 'describe_service']))
      expect(names).not.toContain('slugify')
      expect(names.length).toBeLessThanOrEqual(24)

      const before = await balances()
      const viaGeneric = await agent.callTool({
        name: 'call_service',
        arguments: { slug: 'slugify', arguments: { text: 'Bridged call' } },
      })
      expect(viaGeneric.isError).toBeFalsy()
      expect(viaGeneric.structuredContent).toEqual({ slug: 'bridged-call', length: 12 })
      expect(viaGeneric._meta?.['x402/payment-response']).toMatchObject({
        success: true,
        network: 'eip155:8453',
        payer: chain.payer.address,
      })
      // An unlisted service still answers under its own name.
      const byName = await agent.callTool({ name: 'slugify', arguments: { text: 'By name' } })
      expect(byName.structuredContent).toEqual({ slug: 'by-name', length: 7 })
      const after = await balances()
      expect(before.payer - after.payer).toBe(2000n)
      expect(after.payee - before.payee).toBe(2000n)
      const free = await agent.callTool({ name: 'search_services', arguments: { query: 'slug' } })
      expect((free.structuredContent as any).results[0].slug).toBe('slugify')
      expect(await balances()).toEqual(after)
    }, 60_000)

    test('X402_MCP_TOOLS=all lists every service as its own tool', async () => {
      const agent = await agentVia(command, configured({ X402_MCP_TOOLS: 'all' }))
      const names = (await agent.listTools()).tools.map((t) => t.name)
      const services = ((await (await fetch(s.url + '/services')).json()) as any).services as any[]
      expect(names.length).toBe(services.length + 4)
      expect(names).toEqual(expect.arrayContaining(['slugify', 'test-echo', 'call_service']))
    }, 60_000)
  })
}

test('a call over the cap is refused by the bridge and nothing is paid; invalid arguments cost nothing', async () => {
  const agent = await agentVia('node', configured())
  const before = await balances()
  const pro = await agent.callTool({ name: 'test-explain', arguments: { code: 'x', tier: 'pro' } })
  expect(pro.isError).toBe(true)
  expect((pro.structuredContent as any).error.code).toBe('BRIDGE_REFUSED')
  expect((pro.structuredContent as any).error.message).toContain('X402_MAX_USDC')
  const bad = await agent.callTool({ name: 'slugify', arguments: { text: 7 } })
  expect((bad.structuredContent as any).error.code).toBe('INVALID_INPUT')
  expect(await balances()).toEqual(before)
}, 60_000)

describe('errors reach the client, the bridge keeps running', () => {
  test('no configuration: initialize succeeds, tools/list and tools/call say what to set', async () => {
    const agent = await agentVia('node', {})
    expect(agent.getInstructions()).toContain('X402_MCP_URL')
    await expect(agent.listTools()).rejects.toThrow(/X402_PRIVATE_KEY/)
    const r = await agent.callTool({ name: 'slugify', arguments: { text: 'x' } })
    expect(r.isError).toBe(true)
    expect((r.structuredContent as any).error).toMatchObject({ code: 'BRIDGE_ERROR' })
    expect((r.structuredContent as any).error.message).toContain('X402_MCP_URL')
  }, 30_000)

  test('an unreachable endpoint is named in the error, and a bad cap is refused up front', async () => {
    const dead = await agentVia('node', configured({ X402_MCP_URL: 'http://127.0.0.1:9/mcp' }))
    await expect(dead.listTools()).rejects.toThrow(/Cannot reach the x402 MCP endpoint http:\/\/127\.0\.0\.1:9/)
    const r = await dead.callTool({ name: 'slugify', arguments: { text: 'x' } })
    expect((r.structuredContent as any).error.message).toContain('X402_MCP_URL')
    // Still alive: the next request is answered too.
    await expect(dead.listTools()).rejects.toThrow(/Cannot reach/)
    const capped = await agentVia('node', configured({ X402_MAX_USDC: 'ten cents' }))
    await expect(capped.listTools()).rejects.toThrow(/X402_MAX_USDC must be a USDC amount/)
  }, 30_000)
})
