import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1-mini for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'summarize-content',
  name: 'Summarize content',
  description:
    'Summarizes text (article, report, documentation, email thread): a short summary and the key points. `code` is the text; `context` can give the audience or focus. Tiers: 1000/2000/4000 tokens; input capped at 8 characters per budget token (413 beyond). Differs from summarize-url: it takes the text itself; use summarize-url to summarize a web page or document by URL.',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.02, 1000], [0.05, 2000], [0.1, 4000]),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('The text to summarize.'),
  aliases: serviceRequestAliases(),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: {
        code: 'The city council voted 7-2 on Tuesday to extend the bike-lane network by 40 km over three years, funded by a state grant.',
      },
      output: {
        service: 'summarize-content',
        tier: 'standard',
        result:
          '**Summary:** the council approved a 40 km bike-lane extension over three years, paid by a state grant.\n\n**Key points**\n- Vote: 7-2\n- Funding: state grant',
        model: 'gpt-4.1-mini',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
