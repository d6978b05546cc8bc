/**
 * MCP figures: an unpaid tools/call on /mcp (a fresh stateless SDK server per request, the PaymentRequired as a
 * tool result) against the same service's unpaid HTTP 402, and tools/list (every tool with its schemas), on the
 * same running app. Ratios only.
 */
import { measure, type WrkResult } from './lib'

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
}
const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })

export async function mcpFigures(
  port: number,
  o: { seconds: number; connections: number },
  runs: number,
  warmup: number,
  httpChallenge: WrkResult,
  fmt: (r: WrkResult) => string,
): Promise<string[]> {
  const url = `http://127.0.0.1:${port}/mcp`
  const call = await measure(
    url,
    {
      ...o,
      method: 'POST',
      headers: MCP_HEADERS,
      body: rpc('tools/call', { name: 'hash-digest', arguments: { text: 'hello' } }),
    },
    runs,
    warmup,
  )
  const list = await measure(
    url,
    { ...o, method: 'POST', headers: MCP_HEADERS, body: rpc('tools/list', {}) },
    runs,
    warmup,
  )
  return [
    '| figure | result | ratio to the HTTP unpaid 402 |',
    '|---|---|---|',
    `| unpaid tools/call on /mcp (PaymentRequired as an isError result) | ${fmt(call)} | **${(call.rps / httpChallenge.rps).toFixed(2)}x** |`,
    `| tools/list (every service as a tool, with schemas) | ${fmt(list)} | ${(list.rps / httpChallenge.rps).toFixed(2)}x |`,
  ]
}
