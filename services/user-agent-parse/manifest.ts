import { defineService, flat, t } from '../../runtime/sdk'

const NV = t.Object({ name: t.Union([t.String(), t.Null()]), version: t.Union([t.String(), t.Null()]) })

export default defineService({
  slug: 'user-agent-parse',
  name: 'User-agent parser',
  description: 'Parses a User-Agent header with ua-parser-js 1.0.41 (MIT): browser and major version, rendering engine, operating system, device type/vendor/model (type null means desktop), CPU architecture, and a bot flag (matches bot, crawl, spider, slurp, curl, wget, python-requests, httpclient, headless, lighthouse, facebookexternalhit, preview).',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({ ua: t.String({ minLength: 1, maxLength: 2048, description: 'The User-Agent string.' }) }, { additionalProperties: true }),
  output: t.Object({
    browser: t.Object({ name: t.Union([t.String(), t.Null()]), version: t.Union([t.String(), t.Null()]), major: t.Union([t.String(), t.Null()]) }),
    engine: NV, os: NV,
    device: t.Object({ type: t.Union([t.String(), t.Null()]), vendor: t.Union([t.String(), t.Null()]), model: t.Union([t.String(), t.Null()]) }),
    cpu: t.Union([t.String(), t.Null()]), is_bot: t.Boolean(), is_mobile: t.Boolean(),
  }),
  examples: [{ name: 'Chrome on Windows', input: { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36' } }],
})
