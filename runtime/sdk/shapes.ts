import { Type as t } from '@sinclair/typebox'
import { TIERS, type InputAliases, type Tier, type TierPrice, type TierName } from './manifest'

/** Largest `code` a tiered request may carry (characters). Tiers may refuse less. */
export const MAX_CODE_CHARS = 100_000

/** Spec §2.1 ServiceRequest: the body of tiered services, read-url and the demo. */
export const serviceRequest = (codeDescription = 'The content to process.') =>
  t.Object(
    {
      code: t.String({ minLength: 1, maxLength: MAX_CODE_CHARS, description: codeDescription }),
      language: t.Optional(t.String({ maxLength: 64, description: 'Language hint. Auto-detected when omitted.' })),
      context: t.Optional(t.String({ maxLength: 20_000, description: 'Extra context or instructions.' })),
      tier: t.Optional(
        t.Union(
          TIERS.map((x) => t.Literal(x)),
          { default: 'standard', description: `${TIERS.join(', ')}. Also accepted as ?tier=.` },
        ),
      ),
    },
    { additionalProperties: true },
  )

/**
 * Field names agents use instead of a ServiceRequest's own (`text` for `code`, `instructions` for `context`);
 * `more` adds the service's natural word for its content (e.g. `{ url: 'code' }` for read-url).
 * @example aliases: serviceRequestAliases({ transcript: 'code' })
 */
export function serviceRequestAliases(more: Record<string, 'code' | 'context' | 'language'> = {}): InputAliases {
  return {
    fields: {
      text: 'code',
      content: 'code',
      input: 'code',
      source: 'code',
      lang: 'language',
      instructions: 'context',
      ...more,
    },
  }
}

/** Spec §2.2 ServiceResponse: the 200 body of tiered services. */
export const serviceResponse = () =>
  t.Object({
    service: t.String({ description: 'Service identifier (slug).' }),
    tier: t.String({ description: 'Tier used.' }),
    result: t.String({ description: 'The generated analysis or text.' }),
    model: t.String({ description: 'Identifier of the model used.' }),
    tokens_used: t.Integer({
      description:
        'Total tokens consumed (prompt and answer), as reported by the provider, or counted by the server when it reports none.',
    }),
    request_id: t.String({
      description: 'Unique request identifier: req_ followed by 20 hex digits (also in the X-Request-Id header).',
    }),
    charged: t.Optional(
      t.Object(
        {
          atomic: t.String({ description: 'USDC atomic units (6 decimals) charged.' }),
          usd: t.String({ description: 'The same in USD, 6 decimals.' }),
        },
        {
          description:
            'Only when paid by a batch-settlement (channel) voucher: what this call cost, by tokens used (at most the price; docs/channels.md).',
        },
      ),
    ),
  })

/** `{ quick, standard, pro }` from three `[price_usd, max_tokens]` pairs (spec §4.3). */
export function tieredPricing(
  quick: [number, number],
  standard: [number, number],
  pro: [number, number],
): Record<Tier, TierPrice> {
  const p = ([price_usd, max_tokens]: [number, number]) => ({ price_usd, max_tokens })
  return { quick: p(quick), standard: p(standard), pro: p(pro) }
}

/** `{ flat: { price_usd, max_tokens: 0 } }` for a flat-rate utility. */
export function flat(price_usd: number): Partial<Record<TierName, TierPrice>> {
  return { flat: { price_usd, max_tokens: 0 } }
}
