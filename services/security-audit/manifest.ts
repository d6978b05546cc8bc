import { defineService, serviceRequest, serviceResponse, tieredPricing, serviceRequestAliases } from '../../runtime/sdk'

/** Model: gpt-4.1 for every tier (tiers change depth and max_tokens only; the operator may override it in registry.yaml). */
export default defineService({
  slug: 'security-audit',
  name: 'Security audit',
  description:
    'Security audit of source code against the OWASP Top 10 (2021): a status for each of A01-A10, vulnerabilities with CVSS v3.1 base scores (severity derived from the score), attack scenarios, remediation code, an executive summary and an overall risk score from 1 to 100. The model answers in a validated JSON structure rendered to Markdown in `result`. `context` describes the application (exposure, data, auth). Tiers: 8000/16000/32000 tokens; input capped at 8 characters per budget token (413 beyond).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: tieredPricing([0.35, 8000], [1, 16000], [2.5, 32000]),
  model: 'gpt-4.1',
  needs: ['model'],
  timeoutMs: 45000,
  input: serviceRequest('Source code to audit.'),
  aliases: serviceRequestAliases(),
  output: serviceResponse(),
  examples: [
    {
      name: 'Standard tier',
      input: {
        code: "app.get('/user', (req, res) => db.query(`SELECT * FROM users WHERE id = ${req.query.id}`))",
        language: 'javascript',
        context: 'public Express API',
      },
      output: {
        service: 'security-audit',
        tier: 'standard',
        result:
          '# Security audit\n\n**Risk score: 86/100**\n\n## Executive summary\nThe endpoint builds SQL from a query parameter ...\n\n## Vulnerabilities\n1. **CRITICAL (CVSS 9.8)** SQL injection — A03 Injection ...',
        model: 'gpt-4.1',
        tokens_used: 812,
        request_id: 'req_3f1c2a9e5d7b0000002a',
      },
    },
  ],
})
