/**
 * A local MCP bridge that pays: a stdio MCP server for desktop agents (Claude Desktop, Cursor, ...) that forwards
 * every tools/list and tools/call to a remote x402 MCP endpoint (this API's /mcp) and, when a tool answers with
 * the x402 PaymentRequired, signs the payment with a local key (EIP-3009, via @x402/evm) and repeats the call with
 * it in _meta["x402/payment"]. The key never leaves this process; a per-call cap bounds what one call may cost.
 *
 *   X402_MCP_URL=https://api.example.com/mcp X402_PRIVATE_KEY=0x... X402_MAX_USDC=0.10 bun scripts/mcp-bridge.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { usdToAtomic } from '../runtime/pay/amount'

export interface BridgeOptions {
  /** The remote MCP endpoint, e.g. https://api.example.com/mcp. */
  url: string
  /** The payer's private key (0x + 64 hex). */
  key: Hex
  /** Most atomic USDC (6 decimals) one tool call may cost. */
  maxAtomic: bigint
  /** CAIP-2 network to pay on (default Base mainnet). */
  network?: string
}

type Result = Record<string, unknown> & {
  content?: unknown
  isError?: boolean
  structuredContent?: Record<string, unknown>
}
type Requirement = { network: string; amount: string }

const paymentRequiredOf = (r: Result) => {
  const pr = r.isError ? r.structuredContent : undefined
  return pr && typeof pr.x402Version === 'number' && Array.isArray(pr.accepts)
    ? (pr as { x402Version: number; accepts: Requirement[] })
    : undefined
}
const refusal = (message: string): Result => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify({ error: { code: 'BRIDGE_REFUSED', message } }) }],
})

/** The bridge server (not yet connected to stdio) and the remote client it uses. */
export async function createBridge(o: BridgeOptions) {
  const network = o.network ?? 'eip155:8453'
  const payer = new x402Client().register(
    network as `${string}:${string}`,
    new ExactEvmScheme(privateKeyToAccount(o.key)),
  )
  const remote = new Client({ name: 'x402-mcp-bridge', version: '1.0.0' })
  await remote.connect(new StreamableHTTPClientTransport(new URL(o.url)))
  const info = remote.getServerVersion()
  const server = new Server(
    { name: `${info?.name ?? 'remote'} (x402 bridge)`, version: info?.version ?? '1.0.0' },
    { capabilities: { tools: {} }, instructions: remote.getInstructions() },
  )

  server.setRequestHandler(ListToolsRequestSchema, (req) => remote.listTools(req.params))
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: args } = req.params
    const first = (await remote.callTool({ name, arguments: args })) as Result
    const required = paymentRequiredOf(first)
    if (!required) return first
    // Pay only on our network and within the cap; anything else goes back to the agent unpaid.
    const affordable = required.accepts.filter((a) => a.network === network && BigInt(a.amount) <= o.maxAtomic)
    if (!affordable.length) {
      const cheapest = required.accepts.map((a) => BigInt(a.amount)).sort((a, b) => (a < b ? -1 : 1))[0]
      return refusal(
        `${name} costs ${cheapest ?? '?'} atomic USDC, over this bridge's cap of ${o.maxAtomic} (X402_MAX_USDC); nothing was paid.`,
      )
    }
    const payment = await payer.createPaymentPayload({ ...required, accepts: affordable } as never)
    return (await remote.callTool({ name, arguments: args, _meta: { 'x402/payment': payment } })) as Result
  })
  return {
    server,
    remote,
    async close() {
      await server.close()
      await remote.close()
    },
  }
}

if (import.meta.main) {
  const url = process.env.X402_MCP_URL
  const key = process.env.X402_PRIVATE_KEY
  if (!url || !key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    console.error(
      'Set X402_MCP_URL (the remote /mcp URL) and X402_PRIVATE_KEY (0x + 64 hex); optional X402_MAX_USDC (default 0.10).',
    )
    process.exit(2)
  }
  const bridge = await createBridge({
    url,
    key: key as Hex,
    maxAtomic: BigInt(usdToAtomic(Number(process.env.X402_MAX_USDC ?? '0.1'))),
    network: process.env.X402_NETWORK,
  })
  await bridge.server.connect(new StdioServerTransport())
}
