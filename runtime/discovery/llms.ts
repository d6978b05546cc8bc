import type { NetworkChannelTerms } from '../pay/schemes/batch-settlement/scheme'
import { mppTerms } from './mpp'
import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'
import { TIERS, type TierName } from '../sdk'
import { firstSentence } from './sentence'
import { fieldLines } from './llms-fields'
import { solanaHowTo } from './solana'

/** The one-line purpose of a service: the first sentence of its description, whole (see firstSentence). */
export const oneLine = firstSentence

const price = (s: CatalogService) => {
  const tiers = Object.keys(s.pricing) as TierName[]
  return tiers.length === 1
    ? `$${s.pricing[tiers[0]]!.price_usd}`
    : tiers.map((t) => `${t} $${s.pricing[t]!.price_usd}`).join(' / ')
}

/**
 * The official client refuses any one payment above $1 unless its spend controls say otherwise
 * (`DEFAULT_MAX_AMOUNT_PER_PAYMENT` in `@x402/core`): name the tiers that cost more and how to allow them.
 */
function spendCapLine(services: CatalogService[]): string[] {
  const over = services.flatMap((s) =>
    (Object.keys(s.pricing) as TierName[])
      .filter((t) => Number(s.pricing[t]!.price_usd) > 1)
      .map((t) => ({ name: `${s.slug} ${t}`, usd: Number(s.pricing[t]!.price_usd) })),
  )
  if (!over.length) return []
  const max = Math.max(...over.map((o) => o.usd))
  return [
    `The official client refuses a single payment above $1 by default: ${over.map((o) => o.name).join(', ')} cost more; allow them with \`x402Client.setSpendControls({ maxAmountPerPayment: '$${max}' })\`.`,
  ]
}

/** How an MPP agent pays the same 402 (when MPP is offered): docs/payments.md. */
function mppSection(cfg: Config): string[] {
  const mpp = mppTerms(cfg)
  if (!mpp) return []
  const chains = mpp.networks.map((n) => `chain ${n.chainId}`).join(', ')
  return [
    '',
    '## How to pay (MPP)',
    '',
    `The same 402 also carries an MPP challenge (the Machine Payments Protocol, paymentauth.org): \`WWW-Authenticate: Payment id="…", realm="${mpp.realm}", method="evm", intent="charge", request="…", expires="…"\`, one per network (${chains}), for the same price, token (USDC) and recipient as the x402 offer.`,
    '1. Decode `request` (base64url JSON: `amount`, `currency`, `recipient`, `methodDetails.chainId`) and sign an EIP-3009 `TransferWithAuthorization` for exactly `amount` to `recipient`, with `nonce` = keccak256 of the challenge `id` followed by `realm`, `validAfter` 0 and `validBefore` = `expires`.',
    '2. Repeat the identical request with `Authorization: Payment <base64url of {challenge, payload: {type: "authorization", from, to, value, validAfter, validBefore, nonce, signature}, source}>` (never together with an x402 header: that is a 400).',
    '3. A 200 carries the result and a `Payment-Receipt` header (base64url JSON: method, reference = the settlement transaction, status, timestamp, challengeId, chainId, and this server\'s signed receipt in `extensions["offer-receipt"]`). A refused credential is a 402 with RFC 9457 problem details (`https://paymentauth.org/problems/…`) and a fresh challenge; a challenge pays once: the same credential sent again for the identical request returns the kept result and its receipt without a second charge (this is also how a settlement answered as pending, `reason: settlement_pending` with Retry-After, is collected once confirmed), and for any other request it is `invalid-challenge`. Failed calls are never charged.',
    'With mppx this is: `Mppx.create({ methods: [evm.charge({ account, currencies: [evm.assets.base.USDC] })], polyfill: false }).fetch(url, init)` from `mppx/client`. Over MCP: the credential in `_meta["org.paymentauth/credential"]`, the receipt in `_meta["org.paymentauth/receipt"]` (`McpClient.wrap` from `mppx/mcp/client`).',
    '',
  ]
}

/**
 * GET /llms.txt (llmstxt.org format): what the API is, how to pay with x402, and every service grouped by
 * category with its price, one-line purpose, input fields and the other field names it accepts. Generated from the
 * catalog at boot, so it never drifts.
 */
export function llmsTxt(services: CatalogService[], cfg: Config, terms?: NetworkChannelTerms): string {
  const base = cfg.provider.apiBase.replace(/\/+$/, '')
  const channels = terms && Object.values(terms)[0]
  // NETWORKS: which networks offer channels, and where their entries are in `accepts` (after every exact entry).
  const on = Object.keys(terms ?? {})
  const where =
    cfg.networks.length > 1
      ? `the \`batch-settlement\` entries after the \`exact\` ones, on ${on.join(', ')}`
      : '`accepts[1]`'
  const out: string[] = [
    `# ${cfg.provider.name}`,
    '',
    `> ${cfg.provider.description.replace(/\s+/g, ' ').trim() || 'Pay-per-request HTTP/JSON services for AI agents.'}`,
    '',
    `${services.length} services, each one HTTP POST with a JSON body at ${base}/api/v1/<slug> (also at /api/<slug>). No account or API key: every call is paid on its own with the x402 protocol v2 (scheme \`exact\`, USDC on ${cfg.networks[0].network}, token ${cfg.networks[0].asset}).`,
    '',
    '## How to pay (x402)',
    '',
    `1. POST the request (the body you mean to pay for) without payment. A body that would be refused is answered now, before any payment: malformed JSON 400 and not JSON 415 (both with an \`example\` body), invalid fields 422 with \`details\` saying what to send. An empty body or \`{}\` only asks for the price. Otherwise the answer is 402 with a \`PAYMENT-REQUIRED\` header: base64 JSON whose \`accepts[0]\` gives the price (\`amount\`, USDC with 6 decimals), \`payTo\`, \`asset\`, \`network\` and \`maxTimeoutSeconds\`.`,
    '2. Sign an EIP-3009 `TransferWithAuthorization` for exactly that amount to `payTo` (EIP-712 domain from `accepts[0].extra`: name and version of the token).',
    '3. Repeat the identical request with the header `PAYMENT-SIGNATURE` (base64 of the v2 PaymentPayload; legacy v1 clients send `X-PAYMENT`).',
    '4. A 200 carries the result and a `PAYMENT-RESPONSE` header with the settlement transaction and a signed receipt (`extensions["offer-receipt"]`, key at /.well-known/did.json, check one at POST /receipts/verify). A failed call (status >= 400) is never charged; the same authorization can be used again.',
    '',
    'With the official client this is one line: `wrapFetchWithPayment(fetch, new x402Client().register(network, new ExactEvmScheme(account)))` from `@x402/fetch` and `@x402/evm`.',
    ...spendCapLine(services),
    ...(channels
      ? [
          `Payment channels: every 402 also offers \`batch-settlement\` (${where}): deposit once (at least ${channels.min_deposit} atomic units, gas paid by this server), then each call is paid by a signed cumulative voucher, checked locally and answered at once with no transaction; unspent funds come back with a cooperative refund (GET on the paid route). Pick it for many calls: \`exact\` costs one on-chain transfer per call. Client: \`new x402Client().register(network, new BatchSettlementEvmScheme(signer))\` from \`@x402/evm/batch-settlement/client\`. Model tiers charge for the tokens used, the price being the ceiling: the answer's \`charged\` ({ atomic, usd }) and PAYMENT-RESPONSE \`extra.chargedAmount\` say what was charged. Every paid answer carries the same signed receipt as with \`exact\` (PAYMENT-RESPONSE \`extensions["offer-receipt"]\`), with the channel id and cumulative charged amount in place of a transaction.`,
        ]
      : []),
    ...mppSection(cfg),
    ...(solanaHowTo(cfg) ? [solanaHowTo(cfg)!] : []),
    `Tiered (model-backed) services take \`?tier=${TIERS.join('|')}\` (default standard); each tier has its own price.`,
    'Model-backed services stream with `Accept: text/event-stream`: `delta` events as the model writes, then one `result` event (the JSON answer plus `payment`, the settlement response); settled only after the complete result, nothing charged if the stream breaks.',
    `Errors always have the shape \`{ "error": { "code", "message", "details"? }, "request_id" }\`. Bad input is a 400/422 before any payment and costs nothing.`,
    'Under each service below: its body fields (type; required, default or optional; allowed values) and the other field names it accepts (`alias`→`field`; the field wins when both are sent). Enum values match case-insensitively, with `-`, `_` and spaces alike. A 422 names each wrong field and what to send.',
    '',
    '## Discovery',
    '',
    `- [OpenAPI 3.1 for agents](${base}/openapi.json): compact: every paid service in one templated operation (slug as a parameter) with the price range`,
    `- [OpenAPI 3.1 reference](${base}/openapi/full.json): one operation per service with its input/output schema and price (x-payment-info)`,
    `- [Services](${base}/services): the catalog as JSON, with examples`,
    `- [Bazaar list](${base}/discovery/resources): x402 Bazaar resources (filters: tags, network, scheme, payTo)`,
    `- [Search](${base}/discovery/search?query=json): services ranked by relevance (query, limit, cursor)`,
    `- [A2A agent card](${base}/.well-known/agent-card.json): the same services as A2A skills (JSON-RPC at ${base}/a2a, A2A 1.0 and 0.3), paid with the x402 extension: the task asks for payment (\`input-required\`, \`x402.payment.required\`), the answer on the task carries \`x402.payment.payload\`, the completed task \`x402.payment.receipts\`; \`message/stream\` streams a model answer as it is written (settled once complete)`,
    `- [MCP](${base}/mcp): the same services as paid MCP tools (Streamable HTTP, stateless; payment in \`_meta["x402/payment"]\`), listed as a small set by default (free \`search_services\` and \`describe_service\`, a paid \`call_service\` that reaches every service, the most used services); [${base}/mcp?tools=all](${base}/mcp?tools=all) lists every service as its own tool`,
    `- [Free demo](${base}/api/demo/explain): POST explain-code at the quick tier, ${cfg.demo.dailyLimit} calls per day, no payment`,
  ]
  // Categories in the order services/categories.ts declares them (the catalog's categoryRank).
  const ranked = [...new Map(services.map((s) => [s.categoryRank, s.manifest.category])).entries()].sort(
    (a, b) => a[0] - b[0],
  )
  for (const [, category] of ranked) {
    const inCat = services.filter((s) => s.manifest.category === category)
    out.push('', `## ${category}`, '')
    for (const s of inCat)
      out.push(
        `- [${s.manifest.name}](${base}/api/v1/${s.slug}): ${price(s)}. ${oneLine(s.manifest.description)}${s.available ? '' : ' (currently unavailable)'}`,
        ...fieldLines(s),
      )
  }
  return `${out.join('\n')}\n`
}
