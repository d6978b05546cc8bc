/**
 * scripts/mcp-bridge.ts as a desktop agent runs it: a child process speaking MCP over stdio, paying the remote
 * /mcp on a real local chain with its own key, within a per-call cap.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { TestServer } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { withEcho } from '../support/extra-service'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let s: TestServer
let agent: Client

beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, { entries: withEcho() })
  agent = new Client({ name: 'desktop-agent', version: '1.0.0' })
  await agent.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['scripts/mcp-bridge.ts'],
      env: {
        PATH: process.env.PATH ?? '',
        X402_MCP_URL: s.url + '/mcp',
        X402_PRIVATE_KEY: chain.payer.privateKey,
        X402_MAX_USDC: '0.05',
      },
      stderr: 'inherit',
    }),
  )
}, 60_000)
afterAll(async () => {
  await agent?.close()
  await s?.stop()
  await chain?.stop()
})

const balances = async () => ({
  payer: await usdcBalance(chain.rpcUrl, chain.payer.address),
  payee: await usdcBalance(chain.rpcUrl, chain.payee.address),
})

test('the bridge lists the remote tools and pays a call with its key: result, receipt, exact USDC', async () => {
  const { tools } = await agent.listTools()
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['slugify', 'search_services', 'test-echo']))
  const before = await balances()
  const r = await agent.callTool({ name: 'slugify', arguments: { text: 'Bridged call' } })
  expect(r.isError).toBeFalsy()
  expect(r.structuredContent).toEqual({ slug: 'bridged-call', length: 12 })
  expect(r._meta?.['x402/payment-response']).toMatchObject({
    success: true,
    network: 'eip155:8453',
    payer: chain.payer.address,
  })
  const after = await balances()
  expect(before.payer - after.payer).toBe(1000n)
  expect(after.payee - before.payee).toBe(1000n)
  const free = await agent.callTool({ name: 'search_services', arguments: { query: 'slug' } })
  expect((free.structuredContent as any).results[0].slug).toBe('slugify')
  expect(await balances()).toEqual(after)
}, 60_000)

test('a call over the cap is refused by the bridge and nothing is paid; invalid arguments cost nothing', async () => {
  const before = await balances()
  const pro = await agent.callTool({ name: 'test-explain', arguments: { code: 'x', tier: 'pro' } })
  expect(pro.isError).toBe(true)
  expect(JSON.stringify(pro.content)).toContain('BRIDGE_REFUSED')
  const bad = await agent.callTool({ name: 'slugify', arguments: { text: 7 } })
  expect((bad.structuredContent as any).error.code).toBe('INVALID_INPUT')
  expect(await balances()).toEqual(before)
  const stats = (await (await fetch(s.url + '/stats')).json()) as any
  const settled = sqliteOf(s.booted).ledger.settledTotal()
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(settled)
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(settled)
}, 60_000)
