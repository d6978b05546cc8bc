import { t, type Static, type Tier } from '../../runtime/sdk'

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const

/** The JSON the model must answer with (validated, retried once, else 502). */
export const Review = t.Object({
  summary: t.String({ description: 'Overall assessment in 1-5 sentences.' }),
  score: t.Integer({ minimum: 1, maximum: 10, description: 'Code quality from 1 to 10.' }),
  findings: t.Array(
    t.Object({
      severity: t.Union(SEVERITIES.map((s) => t.Literal(s))),
      title: t.String(),
      location: t.String({ description: 'Line number(s) or symbol.' }),
      description: t.String(),
      suggestion: t.String({ description: 'The fix, with code when useful.' }),
    }),
    { maxItems: 100 },
  ),
  security_notes: t.Array(t.String(), { maxItems: 30 }),
  performance_notes: t.Array(t.String(), { maxItems: 30 }),
})
export type Review = Static<typeof Review>

const rank = (s: string) => SEVERITIES.indexOf(s as (typeof SEVERITIES)[number])

/** Markdown `result`: score line, severity counts, findings sorted by severity, notes. */
export function renderReview(r: Review, tier: Tier): string {
  const findings = [...r.findings]
    .sort((a, b) => rank(a.severity) - rank(b.severity))
    .slice(0, tier === 'quick' ? 5 : undefined)
  const counts = SEVERITIES.map((s) => `${s} ${findings.filter((f) => f.severity === s).length}`).join(' · ')
  const out = [
    '# Code review',
    '',
    `**Quality score: ${r.score}/10**`,
    '',
    r.summary.trim(),
    '',
    `Findings: ${counts}`,
    '',
    '## Findings',
  ]
  if (!findings.length) out.push('', 'No findings.')
  findings.forEach((f, i) => {
    out.push(
      '',
      `${i + 1}. **[${f.severity}]** ${f.title.trim()}${f.location.trim() ? ` (${f.location.trim()})` : ''}`,
      '',
      `   ${f.description.trim()}`,
      '',
      `   **Fix:** ${f.suggestion.trim()}`,
    )
  })
  out.push(
    '',
    '## Security notes',
    '',
    ...(r.security_notes.length ? r.security_notes.map((n) => `- ${n.trim()}`) : ['- None.']),
  )
  out.push(
    '',
    '## Performance notes',
    '',
    ...(r.performance_notes.length ? r.performance_notes.map((n) => `- ${n.trim()}`) : ['- None.']),
  )
  return out.join('\n')
}
