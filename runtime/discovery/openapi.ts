import type { CatalogService } from '../catalog/index'
import { serviceInfo } from './service-info'
import type { Config } from '../config'
import { atomicToUsd } from '../catalog/amount'
import type { ChannelTerms, NetworkChannelTerms } from '../pay/schemes/batch-settlement/scheme'
import { mppProtocols, mppTerms } from './mpp'
import { solanaTermsOf } from './solana'
import { TIERS } from '../sdk'

export const errorSchema = {
  type: 'object',
  required: ['error', 'request_id'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
    request_id: { type: 'string' },
  },
}

/** Documented on every paid 200 (runtime/input/ignored-header.ts), in both documents. */
export const IGNORED_FIELDS_HEADER = {
  'X-Ignored-Fields': {
    description: 'Top-level body fields the service did not use, comma-separated (absent when every field was used).',
    schema: { type: 'string' },
  },
}
/** The 409 of a paid call, in both documents. */
export const PAYMENT_ID_CONFLICT = {
  description: 'The payment-identifier was already used for a different request (nothing charged)',
  content: { 'application/json': { schema: errorSchema } },
}
const free = (summary: string, tag = 'Public') => ({
  tags: [tag],
  summary,
  security: [],
  responses: { 200: { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } },
})

/** info.x-guidance: how to call and pay, in one paragraph (the long form is /llms.txt). */
export const guidanceOf = (cfg: Config, terms?: NetworkChannelTerms) => {
  const base = cfg.provider.apiBase.replace(/\/+$/, '')
  const channels = terms && Object.values(terms)[0]
  return `Read ${base}/llms.txt for the full guide. Every /api/v1/* operation is paid per call with x402 v2 (scheme exact, USDC). Call it without payment, with the body you mean to pay for, to get a 402 with a PAYMENT-REQUIRED header (a body that would be refused gets its 400/415/422 instead, free: fix it first; an empty body or {} just reads the price), sign the EIP-3009 authorization it describes, and repeat the identical request with a PAYMENT-SIGNATURE header (for example with @x402/fetch). Failed calls (status >= 400) are never charged. The identical request sent again with the same payment (or the same payment-identifier extension id) returns the kept result without a second charge. Tiered services take ?tier=${TIERS.join('|')}.${channels ? ` Every 402 also offers scheme batch-settlement (a payment channel: one deposit of at least ${channels.min_deposit} atomic units, then signed vouchers with no transaction per call; x-payment-info.protocols has its terms): cheaper for many calls, see llms.txt.` : ''}${solanaTermsOf(cfg) ? ` Agents on Solana: every 402 also lists scheme exact on ${solanaTermsOf(cfg)!.network} (USDC, extra.feePayer pays the fee; client ExactSvmScheme from @x402/svm/exact/client), see llms.txt.` : ''}${mppTerms(cfg) ? ' The same 402 also carries an MPP challenge (WWW-Authenticate: Payment, method evm, intent charge, same price): an MPP client (e.g. mppx) pays it with an Authorization: Payment credential and gets a Payment-Receipt; see llms.txt.' : ''}`
}

/**
 * x-payment-info.protocols: x402 on each network this server accepts, `exact`, then, where payment channels are
 * offered, `batch-settlement` with its terms (minDeposit in atomic units, withdrawDelay in seconds; docs/channels.md);
 * then MPP's `evm` `charge` on each EVM network when MPP is offered.
 */
export const protocolsOf = (cfg: Config, terms?: NetworkChannelTerms) => {
  const solana = solanaTermsOf(cfg)
  return [
    ...cfg.networks.flatMap((n) => channelProtocols(n, terms?.[n.network])),
    ...(solana
      ? [{ x402: { network: solana.network, asset: solana.asset, scheme: 'exact', feePayer: solana.feePayer } }]
      : []),
    // MPP beside x402 on the same 402 (`evm` `charge`, same price, token and recipient): docs/payments.md.
    ...mppProtocols(cfg),
  ]
}

/** One network's x-payment-info.protocols entries. */
const channelProtocols = (n: Config['networks'][number], channels?: ChannelTerms) => [
  { x402: { network: n.network, asset: n.asset, scheme: 'exact' } },
  ...(channels
    ? [
        {
          x402: {
            network: n.network,
            asset: n.asset,
            scheme: 'batch-settlement',
            minDeposit: channels.min_deposit,
            withdrawDelay: channels.withdraw_delay_s,
            receiverAuthorizer: channels.receiver_authorizer,
          },
        },
      ]
    : []),
]

/** The streamed answer of a model service (Accept: text/event-stream). */
const STREAM_CONTENT = {
  schema: {
    type: 'string',
    description:
      'Server-Sent Events: `delta` events ({"text"}) as the model writes, then one `result` event (this JSON answer plus `payment`, the settlement response with its signed receipt) or one `error` event. Settled only after the complete result. See docs/streaming.md.',
  },
}

/** The free operations, the same in both documents. */
export function freePaths(services: CatalogService[]): Record<string, unknown> {
  return {
    '/health': { get: free('Health check') },
    '/services': { get: free('List services and pricing') },
    '/stats': { get: free('Usage statistics (last 30 days)') },
    '/stats/today': { get: free('Usage statistics for the current UTC day') },
    '/discovery/resources': {
      get: free('x402 Bazaar discovery list (limit, offset; filters type, tags, network, scheme, payTo, extensions)'),
    },
    '/discovery/search': { get: free('Search services by name, description and tags (query, limit, cursor)') },
    '/.well-known/x402': { get: free('Payment discovery manifest (also at /.well-known/x402.json)') },
    '/openapi.json': { get: free('Compact OpenAPI for agents: one templated operation for every paid service') },
    '/openapi/full.json': { get: free('Full OpenAPI reference: one operation per service with its schemas') },
    '/llms.txt': {
      get: {
        tags: ['Public'],
        summary: 'Agent guide: what the API is, how to pay with x402, every service with its price',
        security: [],
        responses: { 200: { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/api/demo/explain': {
      post: {
        tags: ['Demo'],
        summary: 'Free code explanation (explain-code, quick tier), 5 calls per client per UTC day',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: services.find((s) => s.slug === 'explain-code')?.inputJsonSchema ?? { type: 'object' },
            },
          },
        },
        responses: {
          200: { description: 'ServiceResponse' },
          403: {
            description: "CROSS_ORIGIN: a web page's Origin that is not this server's nor in MCP_ALLOWED_ORIGINS",
            content: { 'application/json': { schema: errorSchema } },
          },
          422: { description: 'Validation error', content: { 'application/json': { schema: errorSchema } } },
          429: { description: 'Daily quota used; see Retry-After' },
        },
      },
    },
    '/mcp': {
      post: {
        tags: ['MCP'],
        summary:
          'MCP Streamable HTTP endpoint (stateless): every service as a tool, paid per call with the x402 MCP transport',
        security: [],
        description:
          'JSON-RPC 2.0 (initialize, tools/list, tools/call). A paid tool called without payment returns isError with the x402 v2 PaymentRequired in structuredContent; repeat the call with the PaymentPayload in params._meta["x402/payment"]; the SettleResponse comes back in result._meta["x402/payment-response"]. Free tools: search_services, describe_service and the daily-limited demo. The default list is small (the free tools, a paid call_service(slug, arguments) that reaches every service, the most used services); /mcp?tools=all lists every service as its own tool.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['jsonrpc', 'method'],
                properties: {
                  jsonrpc: { const: '2.0' },
                  id: {},
                  method: { type: 'string' },
                  params: { type: 'object' },
                },
              },
            },
          },
        },
        responses: {
          200: { description: 'JSON-RPC response' },
          400: { description: 'JSON-RPC parse error' },
          403: {
            description:
              "CROSS_ORIGIN: a web page's Origin that is not this server's nor in MCP_ALLOWED_ORIGINS (requests without Origin are served)",
            content: { 'application/json': { schema: errorSchema } },
          },
          406: { description: 'Accept must list application/json and text/event-stream' },
        },
      },
    },
  }
}

/**
 * The full OpenAPI 3.1 reference (GET /openapi/full.json, shown at /docs): one operation per service with its
 * input/output schema, x-payment-info and a documented 402. The agents' compact document is openapi-agent.ts.
 */
export function openapiDocument(
  services: CatalogService[],
  cfg: Config,
  version: string,
  channels?: NetworkChannelTerms,
) {
  const paths = freePaths(services)
  const base = cfg.provider.apiBase.replace(/\/+$/, '')
  for (const s of services) {
    const tiers = Object.keys(s.pricing)
    const amounts = tiers.map((t) => atomicToUsd(s.amounts[t as 'flat']!))
    const op = {
      tags: [s.manifest.category],
      operationId: s.slug.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase()),
      summary: s.manifest.name,
      description: `${s.manifest.description}\n\nPrice: ${tiers.map((t, i) => `${t} $${amounts[i]}`).join(', ')} (USDC on ${cfg.networks[0].network}). Model: ${s.model}.${s.available ? '' : ` Currently unavailable: ${s.unavailableReason?.message}`}`,
      ...(s.manifest.kind === 'tiered'
        ? {
            parameters: [
              {
                name: 'tier',
                in: 'query',
                required: false,
                schema: { type: 'string', enum: [...TIERS], default: 'standard' },
              },
            ],
          }
        : {}),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: s.inputJsonSchema,
            ...(s.manifest.examples[0] ? { example: s.manifest.examples[0].input } : {}),
          },
        },
      },
      responses: {
        200: {
          description: 'Result (settled payment; PAYMENT-RESPONSE header)',
          headers: IGNORED_FIELDS_HEADER,
          content: {
            'application/json': { schema: s.outputJsonSchema },
            // Model services stream with Accept: text/event-stream (docs/streaming.md).
            ...(s.manifest.needs?.includes('model') ? { 'text/event-stream': STREAM_CONTENT } : {}),
          },
        },
        402: {
          description: 'Payment Required: PAYMENT-REQUIRED header (base64 x402 v2 PaymentRequired) and a JSON body',
        },
        409: PAYMENT_ID_CONFLICT,
        422: {
          description: 'Invalid input (nothing charged)',
          content: { 'application/json': { schema: errorSchema } },
        },
      },
      'x-payment-info': {
        price:
          tiers.length === 1
            ? { mode: 'fixed', currency: 'USD', amount: amounts[0] }
            : { mode: 'dynamic', currency: 'USD', min: amounts[0], max: amounts[amounts.length - 1] },
        protocols: protocolsOf(cfg, channels),
      },
    }
    // Only the versioned path: /api/<slug> is the same operation (documented once in info.description).
    paths[`/api/v1/${s.slug}`] = { post: op }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: cfg.provider.name,
      version,
      description: `${cfg.provider.description}\n\nEvery operation under /api/v1/<slug> is also served, identically, at /api/<slug>. Agent guide: ${base}/llms.txt. The compact document agents' discovery reads is ${base}/openapi.json.`,
      contact: { name: cfg.provider.name, url: cfg.provider.website },
      'x-guidance': guidanceOf(cfg, channels),
    },
    'x-service-info': serviceInfo(services, cfg),
    'x-agentcash-guidance': { llmsTxtUrl: `${base}/llms.txt` },
    servers: [{ url: cfg.provider.apiBase }],
    paths,
  }
}
