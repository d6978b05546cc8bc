import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'commit-message',
  name: 'Commit Message',
  description: "Model-backed; a Conventional Commits message from a diff.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    diff: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
