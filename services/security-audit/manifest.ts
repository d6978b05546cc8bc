import { defineService, serviceRequest, serviceResponse, t, tieredPricing } from '../../runtime/sdk'

export default defineService({
  slug: 'security-audit',
  name: 'Security Audit',
  description: 'Security Audit (model-backed, three tiers).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.35,8000], [1,16000], [2.5,32000]),
  model: 'auto',
  needs: ['model'],
  input: serviceRequest(),
  output: serviceResponse(),
  examples: [],
})
