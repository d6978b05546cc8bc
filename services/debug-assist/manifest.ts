import { defineService, serviceRequest, serviceResponse, t, tieredPricing } from '../../runtime/sdk'

export default defineService({
  slug: 'debug-assist',
  name: 'Debug Assist',
  description: 'Debug Assist (model-backed, three tiers).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.08,2000], [0.2,4000], [0.4,8000]),
  model: 'auto',
  needs: ['model'],
  input: serviceRequest(),
  output: serviceResponse(),
  examples: [],
})
