import { t, type Static, type Tier } from '../../runtime/sdk'

/** OWASP Top 10 (2021). */
export const OWASP: Record<string, string> = {
  A01: 'Broken Access Control',
  A02: 'Cryptographic Failures',
  A03: 'Injection',
  A04: 'Insecure Design',
  A05: 'Security Misconfiguration',
  A06: 'Vulnerable and Outdated Components',
  A07: 'Identification and Authentication Failures',
  A08: 'Software and Data Integrity Failures',
  A09: 'Security Logging and Monitoring Failures',
  A10: 'Server-Side Request Forgery',
}
const IDS = Object.keys(OWASP)
const OwaspId = t.Union(IDS.map((id) => t.Literal(id)))

/** The JSON the model must answer with (validated, retried once, else 502). */
export const Audit = t.Object({
  executive_summary: t.String(),
  risk_score: t.Integer({ minimum: 1, maximum: 100 }),
  owasp: t.Array(
    t.Object({
      id: OwaspId,
      status: t.Union([
        t.Literal('vulnerable'),
        t.Literal('at-risk'),
        t.Literal('not-found'),
        t.Literal('not-applicable'),
      ]),
      note: t.String(),
    }),
    { minItems: 10, maxItems: 10 },
  ),
  vulnerabilities: t.Array(
    t.Object({
      title: t.String(),
      owasp: OwaspId,
      cvss_score: t.Number({ minimum: 0, maximum: 10 }),
      cvss_vector: t.String(),
      location: t.String(),
      description: t.String(),
      attack_scenario: t.String(),
      remediation: t.String(),
      remediation_code: t.String(),
    }),
    { maxItems: 100 },
  ),
})
export type Audit = Static<typeof Audit>

/** Each OWASP category exactly once. */
export function validateAudit(a: Audit): string | undefined {
  const seen = new Set(a.owasp.map((o) => o.id))
  const missing = IDS.filter((id) => !seen.has(id))
  return missing.length ? `owasp must list each of A01-A10 exactly once (missing ${missing.join(', ')})` : undefined
}

/** CVSS v3.1 qualitative rating of a base score. */
export function cvssSeverity(score: number): string {
  if (score >= 9) return 'CRITICAL'
  if (score >= 7) return 'HIGH'
  if (score >= 4) return 'MEDIUM'
  if (score > 0) return 'LOW'
  return 'NONE'
}

export function renderAudit(a: Audit, tier: Tier): string {
  const vulns = [...a.vulnerabilities]
    .sort((x, y) => y.cvss_score - x.cvss_score)
    .slice(0, tier === 'quick' ? 5 : undefined)
  const byId = new Map(a.owasp.map((o) => [o.id, o]))
  const out = [
    '# Security audit',
    '',
    `**Risk score: ${a.risk_score}/100**`,
    '',
    '## Executive summary',
    '',
    a.executive_summary.trim(),
    '',
    '## OWASP Top 10 (2021)',
    '',
    '| ID | Category | Status | Note |',
    '|---|---|---|---|',
  ]
  for (const id of IDS) {
    const o = byId.get(id)!
    out.push(
      `| ${id} | ${OWASP[id]} | ${o.status} | ${o.note
        .replace(/\s*\n\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim()} |`,
    )
  }
  out.push('', '## Vulnerabilities')
  if (!vulns.length) out.push('', 'No vulnerabilities found.')
  vulns.forEach((v, i) => {
    const score = v.cvss_score.toFixed(1)
    out.push(
      '',
      `### ${i + 1}. ${cvssSeverity(v.cvss_score)} (CVSS ${score}) ${v.title.trim()} - ${v.owasp} ${OWASP[v.owasp]}`,
      '',
    )
    if (v.cvss_vector.trim()) out.push(`- **CVSS vector:** \`${v.cvss_vector.trim()}\``)
    out.push(
      `- **Location:** ${v.location.trim()}`,
      `- **Description:** ${v.description.trim()}`,
      `- **Attack scenario:** ${v.attack_scenario.trim()}`,
      `- **Remediation:** ${v.remediation.trim()}`,
    )
    if (v.remediation_code.trim())
      out.push('', '```', v.remediation_code.trim().replace(/^```[\w-]*\n?|```$/g, ''), '```')
  })
  return out.join('\n')
}
