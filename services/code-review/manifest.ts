import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1 for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'code-review',
  name: 'Code review',
  description:
    'Reviews source code: findings graded CRITICAL/HIGH/MEDIUM/LOW with locations and fixes, security notes, performance notes and a quality score from 1 to 10. The model answers in a validated JSON structure that is rendered to Markdown in `result` (the score line reads `Quality score: N/10`). `language` is a hint; `context` may describe the project. Tiers: 4000/8000/16000 tokens (quick lists at most 5 findings); input capped at 8 characters per budget token (413 beyond).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.15, 4000], [0.4, 8000], [0.8, 16000]),
  model: 'gpt-4.1',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('Source code to review.'),
  aliases: serviceRequestAliases(),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: {
        code: "def get(users, id):\n    for u in users:\n        if u['id'] == id: return u",
        language: 'python',
      },
      output: {
        service: 'code-review',
        tier: 'standard',
        result:
          '# Code review\n\n**Quality score: 6/10**\n\nSmall lookup helper; correct but linear and silent on misses.\n\n## Findings\n1. **[MEDIUM]** Implicit `None` on miss (line 3) ...',
        model: 'gpt-4.1',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
