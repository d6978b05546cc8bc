import { defineService, serviceRequest, serviceResponse, t, tieredPricing } from '../../runtime/sdk'

export default defineService({
  slug: 'explain-code',
  name: 'Explain Code',
  description: 'Explain Code (model-backed, three tiers).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.01,1000], [0.05,2000], [0.1,4000]),
  model: 'auto',
  needs: ['model'],
  input: serviceRequest(),
  output: serviceResponse(),
  examples: [],
})
