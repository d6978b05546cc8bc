import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'user-agent-parse',
  name: 'User Agent Parse',
  description: "Browser, version, engine, OS, device, bot flag.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    ua: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
