import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'cron-from-text',
  name: 'Cron From Text',
  description: "Model-backed; a cron expression from a plain-English schedule, parsed and validated.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    text: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
