import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1-mini for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'extract-document',
  name: 'Extract document',
  description:
    'Extracts the key content of a document: a summary, key facts, entities, dates, amounts and tables as Markdown. `code` is either the document text or an http(s) URL of a PDF, HTML, plain-text, JSON or XML document (at most 10 MiB, fetched safely; PDFs are converted to text first, so the model never fetches the URL). `context` says what to extract. Tiers: 1000/2000/4000 tokens; the document text plus context is capped at 8 characters per budget token (413 beyond).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.02, 1000], [0.05, 2000], [0.1, 4000]),
  model: 'gpt-4.1-mini',
  needs: ['model', 'fetch'],
  timeoutMs: 45000,
  input: serviceRequest('Document text, or the http(s) URL of a PDF, HTML or text document.'),
  aliases: serviceRequestAliases({ url: 'code', document: 'code' }),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: {
        code: 'Invoice 1042\nDate: 2024-03-01\nBill to: ACME Corp\nTotal due: 1,250.00 USD by 2024-03-31',
        context: 'invoice fields',
      },
      output: {
        service: 'extract-document',
        tier: 'standard',
        result:
          '**Document type:** invoice\n\n| Field | Value |\n|---|---|\n| Invoice number | 1042 |\n| Date | 2024-03-01 |\n| Customer | ACME Corp |\n| Total | 1,250.00 USD |\n| Due | 2024-03-31 |',
        model: 'gpt-4.1-mini',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
