import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

/** An MCP SDK client connected to a test server's /mcp (Streamable HTTP). */
export async function mcpClient(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'x402-test-agent', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(baseUrl + '/mcp')))
  return client
}

/** The parsed JSON of a tool result's first text block. */
export const textJson = (r: Record<string, unknown>) => JSON.parse((r.content as Array<{ type: string; text: string }>)[0].text)
