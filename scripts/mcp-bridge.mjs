#!/usr/bin/env node
/**
 * A local MCP bridge that pays: a stdio MCP server for desktop agents (Claude Desktop, Cursor, ...) that forwards
 * tools/list and tools/call to a remote x402 MCP endpoint (this API's /mcp) and, when a tool answers with the x402
 * PaymentRequired, signs the payment with a local key (EIP-3009, via @x402/evm) and repeats the call with it in
 * _meta["x402/payment"]. The key never leaves this process; a per-call cap bounds what one call may cost.
 *
 * Plain JavaScript (ES modules, no Bun API): runs under Node >= 20 and Bun alike, from the repository (it needs its
 * node_modules). See docs/mcp.md.
 *
 *   X402_MCP_URL=https://api.example.com/mcp X402_PRIVATE_KEY=0x... node scripts/mcp-bridge.mjs
 *
 * Optional: X402_MAX_USDC (default 0.10 per call), X402_NETWORK (default eip155:8453), X402_MCP_TOOLS=all (every
 * service as its own tool instead of the default small set).
 *
 * Errors never end the process silently: a configuration error or an unreachable endpoint is answered to the
 * client (tools/list fails with the message, tools/call returns it as an isError result) and written to stderr.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import { fileURLToPath } from 'node:url'
import { realpathSync } from 'node:fs'

const log = (message) => process.stderr.write(`[x402-mcp-bridge] ${message}\n`)

/** "0.05" -> 50000n (USDC has 6 decimals); undefined when it is not a plain decimal with at most 6 decimals. */
function usdcToAtomic(text) {
  const m = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim())
  return m ? BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0')) : undefined
}

/**
 * The bridge's settings from the environment: `{ options }` or `{ error }` (a sentence naming what to set).
 * @param {Record<string, string | undefined>} env
 */
export function optionsFromEnv(env) {
  const problems = []
  let url
  try {
    url = new URL(env.X402_MCP_URL ?? '')
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)')
  } catch {
    problems.push(
      `X402_MCP_URL must be the remote /mcp URL, e.g. https://api.example.com/mcp (got ${JSON.stringify(env.X402_MCP_URL ?? '')})`,
    )
  }
  const key = env.X402_PRIVATE_KEY ?? ''
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) problems.push('X402_PRIVATE_KEY must be the payer key: 0x + 64 hex digits')
  const maxAtomic = usdcToAtomic(env.X402_MAX_USDC ?? '0.10')
  if (maxAtomic === undefined)
    problems.push(`X402_MAX_USDC must be a USDC amount such as 0.05 (got ${JSON.stringify(env.X402_MAX_USDC)})`)
  const tools = (env.X402_MCP_TOOLS ?? 'default').trim().toLowerCase()
  if (tools !== 'default' && tools !== 'all')
    problems.push(`X402_MCP_TOOLS must be "default" or "all" (got ${JSON.stringify(env.X402_MCP_TOOLS)})`)
  if (problems.length) return { error: `The x402 MCP bridge is not configured: ${problems.join('; ')}.` }
  if (tools === 'all' && !url.searchParams.has('tools')) url.searchParams.set('tools', 'all')
  return { options: { url: url.href, key, maxAtomic, network: env.X402_NETWORK || 'eip155:8453' } }
}

const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const paymentRequiredOf = (r) => {
  const pr = r.isError ? r.structuredContent : undefined
  return isRecord(pr) && typeof pr.x402Version === 'number' && Array.isArray(pr.accepts) ? pr : undefined
}
/** An isError result in the API's error shape, for the agent to read. */
const failure = (code, message) => {
  const body = { error: { code, message } }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body }
}
const reason = (e) => String(e?.cause?.message ?? e?.message ?? e)

/**
 * The bridge server (not yet connected to stdio). `options` as optionsFromEnv returns them, or `configError` to
 * run a bridge that answers every request with that error.
 */
export function createBridge({ options, configError }) {
  const payer = options
    ? new x402Client().register(options.network, new ExactEvmScheme(privateKeyToAccount(options.key)))
    : undefined
  /** The remote client, connected on first use and again after a failure. */
  let remote
  const connect = async () => {
    if (configError) throw new McpError(ErrorCode.InvalidRequest, configError)
    if (remote) return remote
    const client = new Client({ name: 'x402-mcp-bridge', version: '1.0.0' })
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(options.url)))
    } catch (e) {
      const message = `Cannot reach the x402 MCP endpoint ${new URL(options.url).origin} (X402_MCP_URL): ${reason(e)}`
      log(message)
      throw new McpError(ErrorCode.InternalError, message)
    }
    remote = client
    return client
  }
  const server = new Server(
    { name: 'x402 MCP bridge', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      instructions: configError ?? 'Tools of a remote x402 API; paid calls are signed by this bridge within its cap.',
    },
  )

  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const client = await connect()
    try {
      return await client.listTools(req.params)
    } catch (e) {
      remote = undefined
      log(`tools/list failed: ${reason(e)}`)
      throw new McpError(ErrorCode.InternalError, `The x402 MCP endpoint failed to list its tools: ${reason(e)}`)
    }
  })

  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: args } = req.params
    let client
    try {
      client = await connect()
    } catch (e) {
      return failure('BRIDGE_ERROR', e.message)
    }
    try {
      const first = await client.callTool({ name, arguments: args })
      const required = paymentRequiredOf(first)
      if (!required) return first
      // Pay only on our network and within the cap; anything else goes back to the agent unpaid.
      const affordable = required.accepts.filter(
        (a) => a.network === options.network && BigInt(a.amount) <= options.maxAtomic,
      )
      if (!affordable.length) {
        const cheapest = required.accepts.map((a) => BigInt(a.amount)).sort((a, b) => (a < b ? -1 : 1))[0]
        return failure(
          'BRIDGE_REFUSED',
          `${name} costs ${cheapest ?? '?'} atomic USDC on ${required.accepts[0]?.network ?? '?'}; this bridge pays at most ${options.maxAtomic} on ${options.network} (X402_MAX_USDC, X402_NETWORK). Nothing was paid.`,
        )
      }
      const payment = await payer.createPaymentPayload({ ...required, accepts: affordable })
      return await client.callTool({ name, arguments: args, _meta: { 'x402/payment': payment } })
    } catch (e) {
      remote = undefined
      log(`tools/call ${name} failed: ${reason(e)}`)
      return failure(
        'BRIDGE_ERROR',
        `The call to ${name} failed in the bridge: ${reason(e)}. Nothing was charged unless a receipt came back.`,
      )
    }
  })
  return {
    server,
    async close() {
      await server.close()
      await remote?.close()
    },
  }
}

/** True when this file is the program being run (node or bun), not imported. */
const isMain = () => {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (isMain()) {
  process.on('uncaughtException', (e) => log(`unexpected error: ${reason(e)}`))
  process.on('unhandledRejection', (e) => log(`unexpected error: ${reason(e)}`))
  const { options, error } = optionsFromEnv(process.env)
  if (error) log(error)
  const bridge = createBridge({ options, configError: error })
  await bridge.server.connect(new StdioServerTransport())
}
