import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1 for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'debug-assist',
  name: 'Debug assist',
  description:
    'Root-cause analysis of a bug: the likely cause, fix suggestions with severity ratings, and corrected code. `code` is the failing code; `context` is the error message or stack trace; `language` is a hint. Tiers: 2000/4000/8000 tokens; input capped at 8 characters per budget token (413 beyond).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.08, 2000], [0.2, 4000], [0.4, 8000]),
  model: 'gpt-4.1',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('The failing source code.'),
  aliases: serviceRequestAliases({ error: 'context' }),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: {
        code: 'items = [1, 2, 3]\nprint(items[3])',
        language: 'python',
        context: 'IndexError: list index out of range',
      },
      output: {
        service: 'debug-assist',
        tier: 'standard',
        result:
          '## Root cause\n`items[3]` reads past the end of a 3-element list (valid indexes are 0-2).\n\n## Fixes\n- **HIGH** Use `items[-1]` or `items[2]` for the last element.\n\n## Corrected code\n```python\nitems = [1, 2, 3]\nprint(items[-1])\n```',
        model: 'gpt-4.1',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
