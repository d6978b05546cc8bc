import { defineService, serviceRequest, t } from '../../runtime/sdk'

export default defineService({
  slug: 'read-url',
  name: 'Read URL',
  description: 'Fetches a public web page and returns its main content as clean readable text and Markdown (readability extraction, not a tag strip).',
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: { standard: { price_usd: 0.005, max_tokens: 0 } },
  model: 'none',
  needs: ['fetch'],
  input: serviceRequest('The http(s) URL of the page to read.'),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
