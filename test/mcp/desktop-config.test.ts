/**
 * The desktop-agent config of docs/mcp.md (its `mcpServers` JSON block), run as a desktop agent runs it: its command and
 * arguments with `/path/to/repo` replaced, a PATH holding only the directory of `node` (no Bun on it; Bun comes from
 * the project's node_modules through scripts/bootstrap.mjs), MCP over stdio. The bridge must answer the handshake,
 * list the remote tools and run a free tool; stdout carries only JSON-RPC (the bootstrap writes to stderr).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { generatePrivateKey } from 'viem/accounts'
import { startServer, type TestServer } from '../support/server'
import { bootstrapInstalled } from '../support/bootstrap'

const root = join(import.meta.dir, '..', '..')
let s: TestServer
let agent: Client | undefined

beforeAll(async () => {
  s = await startServer()
})
afterAll(async () => {
  await agent?.close()
  await s?.stop()
})

interface ServerConfig {
  command: string
  args: string[]
  env: Record<string, string>
}
function docsConfig(): ServerConfig {
  const doc = readFileSync(join(root, 'docs', 'mcp.md'), 'utf8')
  const block = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('mcpServers'))
  if (!block) throw new Error('docs/mcp.md has no mcpServers config')
  const servers = (JSON.parse(block) as { mcpServers: Record<string, ServerConfig> }).mcpServers
  return Object.values(servers)[0]
}

// Skipped when node_modules came from elsewhere (`bun install`): the bootstrap would run `npm ci` under the suite.
test.skipIf(!bootstrapInstalled())(
  "docs/mcp.md's desktop-agent config runs the bridge with only Node on the PATH",
  async () => {
    const cfg = docsConfig()
    expect(cfg.command).toBe('node')
    const node = Bun.which('node')
    expect(node).toBeTruthy()
    const path = dirname(node!)
    expect(Bun.which('bun', { PATH: path })).toBeNull() // the config must not need Bun on the PATH
    agent = new Client({ name: 'desktop-agent', version: '1.0.0' })
    await agent.connect(
      new StdioClientTransport({
        command: cfg.command,
        args: cfg.args.map((a) => a.replace('/path/to/repo', root)),
        env: {
          PATH: path,
          ...cfg.env,
          X402_MCP_URL: `${s.url}/mcp`,
          X402_PRIVATE_KEY: generatePrivateKey(),
        },
        stderr: 'pipe',
      }),
    )
    const { tools } = await agent.listTools()
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_services']))
    const found = await agent.callTool({ name: 'search_services', arguments: { query: 'slug' } })
    expect((found.structuredContent as any).results[0].slug).toBe('slugify')
  },
  120_000,
)
