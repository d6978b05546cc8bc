import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1-mini for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'analyze-image',
  name: 'Analyze image',
  description:
    'Describes and analyses an image: content, visible text, notable details, and an answer to an optional question. `code` is the http(s) URL of a PNG, JPEG, GIF or WebP image (at most 5 MiB); it is fetched safely and sent to the model as data (the provider never fetches the URL). `context` is an optional question or focus. Tiers: 1000/2000/4000 tokens.',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.03, 1000], [0.08, 2000], [0.15, 4000]),
  model: 'gpt-4.1-mini',
  needs: ['model', 'fetch'],
  timeoutMs: 45000,
  input: serviceRequest('http(s) URL of a PNG, JPEG, GIF or WebP image (at most 5 MiB).'),
  aliases: serviceRequestAliases({ url: 'code', image_url: 'code', image: 'code' }),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: { code: 'https://example.com/chart.png', context: 'What trend does the chart show?' },
      output: {
        service: 'analyze-image',
        tier: 'standard',
        result:
          '**Description:** a line chart of monthly revenue for 2023.\n\n**Answer:** revenue grows steadily from January to December, with a dip in August.',
        model: 'gpt-4.1-mini',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
