import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'email-validate',
  name: 'Email Validate',
  description: "Syntax check plus disposable / role-account / free-provider flags.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    email: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
