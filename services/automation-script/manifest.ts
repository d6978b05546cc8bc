import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1 for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'automation-script',
  name: 'Automation script',
  description:
    'A complete, runnable automation script from a task description: imports, error handling, command-line arguments, documentation and usage. `code` describes the task; `language` is the target language (default Python); `context` holds extra requirements. Tiers: 4000/8000/16000 tokens; input capped at 8 characters per budget token (413 beyond).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.12, 4000], [0.35, 8000], [0.75, 16000]),
  model: 'gpt-4.1',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('Description of the task to automate.'),
  aliases: serviceRequestAliases({ description: 'code', task: 'code' }),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: { code: 'Rename every .jpeg file in a folder to .jpg', language: 'bash' },
      output: {
        service: 'automation-script',
        tier: 'standard',
        result:
          '```bash\n#!/usr/bin/env bash\n# Renames *.jpeg to *.jpg in DIR (default: current directory).\nset -euo pipefail\n...\n```\n\n**Usage:** `./rename.sh [DIR]`',
        model: 'gpt-4.1',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
