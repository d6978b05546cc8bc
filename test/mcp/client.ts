import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

/**
 * An MCP SDK client connected to a test server's /mcp (Streamable HTTP): over the socket given a URL, or in-process
 * given a TestServer (its `fetch`, i.e. app.handle for startApp()). `query` picks the tool set (`?tools=all`).
 */
export async function mcpClient(
  server: string | { url: string; fetch(path: string, init?: RequestInit): Promise<Response> },
  query = '',
): Promise<Client> {
  const client = new Client({ name: 'x402-test-agent', version: '1.0.0' })
  const base = typeof server === 'string' ? server : server.url
  const fetchImpl =
    typeof server === 'string' ? undefined : (url: string | URL, init?: RequestInit) => server.fetch(String(url), init)
  await client.connect(
    new StreamableHTTPClientTransport(new URL(base + '/mcp' + query), fetchImpl ? { fetch: fetchImpl } : {}),
  )
  return client
}

/** The parsed JSON of a tool result's first text block. */
export const textJson = (r: Record<string, unknown>) =>
  JSON.parse((r.content as Array<{ type: string; text: string }>)[0].text)
