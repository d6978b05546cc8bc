import type { CatalogService } from '../catalog/index'
import { serviceInfo } from './service-info'
import type { Config } from '../config'
import { atomicToUsd } from '../catalog/amount'
import type { NetworkChannelTerms } from '../pay/schemes/batch-settlement/scheme'
import { TIERS } from '../sdk'
import { errorSchema, freePaths, guidanceOf, IGNORED_FIELDS_HEADER, PAYMENT_ID_CONFLICT, protocolsOf } from './openapi'

/**
 * GET /openapi.json: the compact OpenAPI 3.1 document agents' discovery reads first (agentcash's OpenAPI-first
 * profile). Every paid service is one templated operation, `POST /api/v1/{slug}`, with the slugs as an enum and
 * the catalog's price range as a bounded dynamic price: the whole surface fits an agent's first-pass token budget
 * (the profile flags documents of more than 40 operations). Per-service schemas and exact prices are one hop
 * away: the 402 of each call (bazaar input/output schema), /llms.txt, /discovery/search and /openapi/full.json.
 */
export function agentOpenapiDocument(
  services: CatalogService[],
  cfg: Config,
  version: string,
  channels?: NetworkChannelTerms,
) {
  const base = cfg.provider.apiBase.replace(/\/+$/, '')
  const amounts = services
    .flatMap((s) => Object.values(s.amounts))
    .map((a) => BigInt(a!))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const min = atomicToUsd(amounts[0] ?? 0n)
  const max = atomicToUsd(amounts[amounts.length - 1] ?? 0n)
  const tiered = services.filter((s) => s.manifest.kind === 'tiered').map((s) => s.slug)
  const paid = {
    tags: ['Services'],
    operationId: 'callService',
    summary: `Call one of ${services.length} pay-per-call services (x402, USDC, $${min} to $${max} per call)`,
    description: `POST the service's JSON input to /api/v1/<slug> (also served at /api/<slug>). Each service has one fixed price (tiered services one per tier): ${base}/llms.txt lists every service with its price and purpose, ${base}/discovery/search?query=... finds one, and the 402 answer to an unpaid call carries its exact price and its input/output JSON schema (extensions.bazaar). One operation per service, with its schemas: ${base}/openapi/full.json.`,
    parameters: [
      {
        name: 'slug',
        in: 'path',
        required: true,
        description: 'The service',
        schema: { type: 'string', enum: services.map((s) => s.slug) },
      },
      {
        name: 'tier',
        in: 'query',
        required: false,
        description: `Model tier, for the tiered services only (${tiered.join(', ')})`,
        schema: { type: 'string', enum: [...TIERS], default: 'standard' },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            description: "The service's input: its JSON schema is in the 402 answer, /services and /openapi/full.json",
          },
        },
      },
    },
    responses: {
      200: {
        description: 'Result (settled payment; PAYMENT-RESPONSE header)',
        headers: IGNORED_FIELDS_HEADER,
        content: { 'application/json': { schema: { type: 'object' } } },
      },
      402: {
        description:
          "Payment Required: PAYMENT-REQUIRED header (base64 x402 v2 PaymentRequired with this service's price and schemas)",
      },
      404: { description: 'No such service', content: { 'application/json': { schema: errorSchema } } },
      409: PAYMENT_ID_CONFLICT,
      422: { description: 'Invalid input (nothing charged)', content: { 'application/json': { schema: errorSchema } } },
    },
    'x-payment-info': { price: { mode: 'dynamic', currency: 'USD', min, max }, protocols: protocolsOf(cfg, channels) },
  }
  return {
    openapi: '3.1.0',
    info: {
      title: cfg.provider.name,
      version,
      description: `${cfg.provider.description}\n\nAgent guide: ${base}/llms.txt. Full reference (one operation per service): ${base}/openapi/full.json.`,
      contact: { name: cfg.provider.name, url: cfg.provider.website },
      'x-guidance': guidanceOf(cfg, channels),
    },
    externalDocs: { description: 'Full OpenAPI reference', url: `${base}/openapi/full.json` },
    'x-service-info': serviceInfo(services, cfg),
    'x-agentcash-guidance': { llmsTxtUrl: `${base}/llms.txt` },
    servers: [{ url: cfg.provider.apiBase }],
    paths: { ...freePaths(services), '/api/v1/{slug}': { post: paid } },
  }
}
