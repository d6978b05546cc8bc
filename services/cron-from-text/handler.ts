import { CronExpressionParser } from 'cron-parser'
import { handlerFor, invalid, t } from '../../runtime/sdk'
import { askJson, dataBlock } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You convert a schedule described in plain language into a standard five-field cron expression: minute hour day-of-month ' +
  'month day-of-week (0-6, Sunday = 0). No seconds field, no year field, no @macros. When the schedule cannot be expressed ' +
  'exactly in cron, give the closest expression and say so in "explanation".'

const Answer = t.Object({ expression: t.String({ minLength: 1, maxLength: 200 }), explanation: t.String() })

/** Parses a five-field expression; throws with the parser's reason. */
export function parseCron(expression: string, now: Date, tz: string) {
  const parts = expression.trim().split(/\s+/)
  if (parts.length !== 5) throw new Error(`expected 5 fields, got ${parts.length}`)
  return { parts, it: CronExpressionParser.parse(parts.join(' '), { currentDate: now, tz }) }
}

function checkZone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
  } catch {
    throw invalid('timezone', 'must be an IANA time zone name such as Europe/Paris')
  }
}

export default handlerFor(manifest, async ({ text, timezone = 'UTC', count = 5 }, ctx) => {
  checkZone(timezone)
  const now = ctx.now()
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([['Schedule', text]]),
    schema: Answer,
    maxTokens: 512,
    validate(a) {
      try {
        parseCron(a.expression, now, timezone).it.next()
        return undefined
      } catch (e) {
        return `"${a.expression}" is not a valid five-field cron expression: ${(e as Error).message}`
      }
    },
  })
  const { parts, it } = parseCron(r.value.expression, now, timezone)
  const next_runs = it.take(count).map((d) => d.toISOString()!)
  const [minute, hour, day_of_month, month, day_of_week] = parts as [string, string, string, string, string]
  return {
    expression: parts.join(' '),
    fields: { minute, hour, day_of_month, month, day_of_week },
    explanation: r.value.explanation.trim(),
    timezone,
    next_runs,
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
