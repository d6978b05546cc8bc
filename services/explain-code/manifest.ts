import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1-mini for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'explain-code',
  name: 'Explain code',
  description:
    'Plain-English explanation of source code with a line-by-line (or block-by-block) walkthrough. `code` is the source; `language` is a hint (auto-detected when omitted); `context` may say what to focus on. Tiers change depth and token budget (1000/2000/4000), never the model. Input is capped at 8 characters per budget token (8,000 / 16,000 / 32,000 characters for code plus context); larger inputs get 413.',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.01, 1000], [0.05, 2000], [0.1, 4000]),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('Source code to explain.'),
  aliases: serviceRequestAliases(),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: { code: 'def add(a, b):\n    return a + b', language: 'python' },
      output: {
        service: 'explain-code',
        tier: 'standard',
        result:
          '**Summary:** `add` returns the sum of its two arguments.\n\n**Line by line**\n1. `def add(a, b):` defines a function with two parameters.\n2. `return a + b` returns their sum (numbers add, strings and lists concatenate).',
        model: 'gpt-4.1-mini',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
