import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1-mini for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'summarize-session',
  name: 'Summarize session',
  description:
    'Summarizes a work session (chat transcript, agent log, terminal session or meeting notes): goals, what was done, decisions, problems, open items and next steps. `code` is the transcript; `context` says what the summary is for. Tiers: 1000/2000/4000 tokens; input capped at 8 characters per budget token (413 beyond).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.02, 1000], [0.05, 2000], [0.1, 4000]),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('The session transcript or log.'),
  aliases: serviceRequestAliases({ transcript: 'code', log: 'code', session: 'code' }),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: {
        code: 'user: the deploy fails with EACCES\nagent: ran npm ci as root, fixed permissions on /app\nuser: works now, next add CI',
      },
      output: {
        service: 'summarize-session',
        tier: 'standard',
        result:
          '**Goal:** fix a failing deploy.\n\n**Done:** permissions on /app fixed; deploy works.\n\n**Next steps:** add CI.',
        model: 'gpt-4.1-mini',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
