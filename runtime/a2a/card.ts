/**
 * The A2A agent card (GET /.well-known/agent-card.json): one skill per service with its price, the x402 payments
 * extension declared. The card has the A2A v1.0 shape (`supportedInterfaces`) and keeps the v0.3 top-level fields
 * (`url`, `preferredTransport`, `protocolVersion`) so clients of either version find the JSON-RPC endpoint.
 * @module a2a/card
 */
import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'
import { priceLine } from '../mcp/tools'
import { A2A_PATH } from './paths'

/** The x402 payments extension (google-agentic-commerce/a2a-x402 v0.2; x402 specs/transports-v2/a2a.md). */
export const X402_EXTENSION = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2'

export function agentCard(services: CatalogService[], config: Config, version: string) {
  const base = config.provider.apiBase
  const url = `${base}${A2A_PATH}`
  const networks = [...new Set(config.networks.map((n) => n.network))]
  return {
    name: config.provider.name,
    description:
      `${config.provider.description || config.provider.name} Every skill is paid per call with x402 v2 (USDC): send a message with a data part {"skill": "<id>", "input": {...}}; the task asks for payment (input-required, x402.payment.required), answer it with the signed PaymentPayload in the message metadata (x402.payment.payload), and the completed task carries the result as an artifact and the receipt in x402.payment.receipts. message/stream streams a model skill's answer as artifact updates; it is settled once complete. Failed calls are never charged.`.trim(),
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    // v0.3 readers (A2A 0.3 clients) take these; v1.0 readers take `supportedInterfaces`.
    url,
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3.0',
    provider: { organization: config.provider.name, url: config.provider.website },
    version,
    documentationUrl: `${base}/llms.txt`,
    iconUrl: config.provider.iconUrl || `${base}/icon.svg`,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: X402_EXTENSION,
          description: `Payments with x402 v2 (scheme exact, and batch-settlement where the PaymentRequired offers it) in USDC on ${networks.join(', ')}.`,
          required: true,
          params: { x402Version: 2, networks },
        },
      ],
    },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: services.map((s) => ({
      id: s.slug,
      name: s.manifest.name,
      description: `${s.manifest.description} Price: ${priceLine(s).replace('the `tier` argument', '`tier` in the input')}.${s.available ? '' : ` Currently unavailable: ${s.unavailableReason?.message}`}`,
      tags: s.tags.length ? s.tags : ['utility'],
      examples: s.manifest.examples.slice(0, 1).map((e) => JSON.stringify({ skill: s.slug, input: e.input })),
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    })),
  }
}
