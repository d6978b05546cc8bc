import { handlerFor, t } from '../../runtime/sdk'
import { askJson, dataBlock } from '../_lib/model-utility'
import manifest, { TYPES } from './manifest'

const SYSTEM =
  'You write Conventional Commits 1.0 messages for diffs. Choose the type from: ' +
  TYPES.join(', ') +
  '. scope: a short ' +
  'lowercase noun for the area changed, or null. subject: imperative mood, lowercase start, no final period, at most 72 ' +
  'characters. body: what changed and why, wrapped at 72 columns, or empty for trivial changes. breaking: true only when the ' +
  'change breaks a public interface, with breaking_note describing the break (else empty).'

const Answer = t.Object({
  type: t.Union(TYPES.map((x) => t.Literal(x))),
  scope: t.Union([t.String({ pattern: '^[a-z0-9][a-z0-9_./-]{0,39}$' }), t.Null()]),
  subject: t.String({ minLength: 3, maxLength: 72, pattern: '^[^\\r\\n]+$' }),
  body: t.String({ maxLength: 4_000 }),
  breaking: t.Boolean(),
  breaking_note: t.String({ maxLength: 1_000 }),
})

export default handlerFor(manifest, async ({ diff, context }, ctx) => {
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Context', context],
      ['Diff', diff],
    ]),
    schema: Answer,
    maxTokens: 1024,
  })
  const a = r.value
  const subject = a.subject.trim().replace(/\.$/, '')
  const header = `${a.type}${a.scope ? `(${a.scope})` : ''}${a.breaking ? '!' : ''}: ${subject}`
  const body = a.body.trim()
  const footer = a.breaking && a.breaking_note.trim() ? `BREAKING CHANGE: ${a.breaking_note.trim()}` : ''
  const message = [header, body, footer].filter(Boolean).join('\n\n')
  return {
    message,
    type: a.type,
    scope: a.scope,
    subject,
    body,
    breaking: a.breaking,
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
