import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'cron-from-text',
  name: 'Cron from text',
  description:
    'A standard five-field cron expression (minute hour day-of-month month day-of-week) from a plain-English schedule. The expression ' +
    'must parse with cron-parser (otherwise the model is asked once more, then 502) and the next run times are computed from the ' +
    'current time in `timezone` (IANA name, default UTC), not by the model. Text: at most 500 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      text: t.String({
        minLength: 1,
        maxLength: 500,
        description: 'The schedule in plain language, e.g. "every weekday at 9am".',
      }),
      timezone: t.Optional(
        t.String({ minLength: 1, maxLength: 64, default: 'UTC', description: 'IANA time zone for next run times.' }),
      ),
      count: t.Optional(
        t.Integer({ minimum: 1, maximum: 20, default: 5, description: 'How many next run times to list.' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { description: 'text', schedule: 'text', tz: 'timezone', n: 'count' } },
  output: t.Object({
    expression: t.String(),
    fields: t.Object({
      minute: t.String(),
      hour: t.String(),
      day_of_month: t.String(),
      month: t.String(),
      day_of_week: t.String(),
    }),
    explanation: t.String({ description: 'What the expression means, and any approximation made.' }),
    timezone: t.String(),
    next_runs: t.Array(t.String({ description: 'ISO-8601 UTC instants.' })),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Weekdays at 9',
      input: { text: 'every weekday at 9am', timezone: 'UTC', count: 2 },
      output: {
        expression: '0 9 * * 1-5',
        fields: { minute: '0', hour: '9', day_of_month: '*', month: '*', day_of_week: '1-5' },
        explanation: 'At 09:00, Monday through Friday.',
        timezone: 'UTC',
        next_runs: ['2024-01-01T09:00:00.000Z', '2024-01-02T09:00:00.000Z'],
        model: 'gpt-4.1-mini',
        tokens_used: 150,
      },
    },
  ],
})
