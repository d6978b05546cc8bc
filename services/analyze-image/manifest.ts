import { defineService, serviceRequest, serviceResponse, t, tieredPricing } from '../../runtime/sdk'

export default defineService({
  slug: 'analyze-image',
  name: 'Analyze Image',
  description: 'Analyze Image (model-backed, three tiers).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.03,1000], [0.08,2000], [0.15,4000]),
  model: 'auto',
  needs: ['model'],
  input: serviceRequest(),
  output: serviceResponse(),
  examples: [],
})
