import { defineService, serviceRequest, serviceResponse, t, tieredPricing } from '../../runtime/sdk'

export default defineService({
  slug: 'mcp-blueprint',
  name: 'Mcp Blueprint',
  description: 'Mcp Blueprint (model-backed, three tiers).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.5,8000], [1.5,16000], [3,32000]),
  model: 'auto',
  needs: ['model'],
  input: serviceRequest(),
  output: serviceResponse(),
  examples: [],
})
