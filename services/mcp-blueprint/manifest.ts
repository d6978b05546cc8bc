import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1 for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'mcp-blueprint',
  name: 'MCP blueprint',
  description:
    'A Model Context Protocol (MCP) server blueprint: architecture, tool definitions with JSON Schemas, implementation code, a client integration guide and deployment instructions. `code` describes the system or API to expose; `language` is `python` or `typescript` (default typescript); `context` holds target tools, transport and auth needs. Tiers: 8000/16000/32000 tokens; input capped at 8 characters per budget token (413 beyond).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.5, 8000], [1.5, 16000], [3, 32000]),
  model: 'gpt-4.1',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('Description of the system, API or data the MCP server should expose.'),
  aliases: serviceRequestAliases({ description: 'code' }),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: {
        code: 'Expose a read-only PostgreSQL database of orders to agents',
        language: 'typescript',
        context: 'stdio transport, no auth',
      },
      output: {
        service: 'mcp-blueprint',
        tier: 'standard',
        result: '## Architecture\n...\n## Tools\n- `list_orders` input schema `{"type":"object",...}`\n...',
        model: 'gpt-4.1',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
