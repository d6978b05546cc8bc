import { defineService, flat, t } from '../../runtime/sdk'

const S = (d: string) => t.Union([t.String(), t.Null()], { description: d })

export default defineService({
  slug: 'user-agent-parse',
  name: 'User-agent parser',
  description:
    'Parses a User-Agent header with ua-parser-js 1.0.41 (MIT): browser name, full and major version, rendering engine, operating system and version, device type/vendor/model (type null usually means a desktop), CPU architecture. ' +
    'is_bot flags automated clients by a documented case-insensitive pattern: crawlers ("bot" except "cubot", a phone brand; crawl, spider, slurp, Mediapartners-Google, ia_archiver), link-preview fetchers (facebookexternalhit, facebookcatalog, embedly, preview, WhatsApp/), ' +
    'headless and automation browsers (HeadlessChrome, Lighthouse, PhantomJS, Puppeteer, Playwright, Selenium), AI agents (ChatGPT-User, Claude-Web, anthropic-ai, Perplexity) and HTTP tools and libraries (curl/, Wget/, python-requests, python-urllib, python-httpx, aiohttp, Go-http-client, Java/, Apache-HttpClient, libwww-perl, node-fetch, axios/, undici, Scrapy, HTTPie, PostmanRuntime, Insomnia); ' +
    'bot_name is the product token that matched. Unknown fields are null. A UA string can be forged: treat the answer as a claim, not proof.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      ua: t.String({
        minLength: 1,
        maxLength: 2048,
        description: 'The User-Agent header value (at most 2,048 characters).',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { user_agent: 'ua', useragent: 'ua', userAgent: 'ua' } },
  output: t.Object({
    browser: t.Object(
      {
        name: S('Browser, e.g. Chrome, Mobile Safari, Firefox, Edge.'),
        version: S('Full browser version.'),
        major: S('Major version.'),
      },
      { description: 'Browser (or app) that sent the header.' },
    ),
    engine: t.Object({
      name: S('Rendering engine: Blink, WebKit, Gecko, Trident, ...'),
      version: S('Engine version.'),
    }),
    os: t.Object({
      name: S('Operating system: Windows, Mac OS, iOS, Android, Linux, ...'),
      version: S('OS version, e.g. 10, 17.1.'),
    }),
    device: t.Object({
      type: S('mobile, tablet, console, smarttv, wearable, embedded, or null (desktop or unknown).'),
      vendor: S('Device maker, e.g. Apple, Samsung.'),
      model: S('Device model, e.g. iPhone, SM-S918B.'),
    }),
    cpu: S('CPU architecture: amd64, arm64, ia32, ...'),
    is_bot: t.Boolean({ description: 'Matches the documented automated-client pattern.' }),
    bot_name: S('The matching product token (e.g. Googlebot, curl), or null.'),
    is_mobile: t.Boolean({ description: 'device.type is mobile (phones; tablets are separate).' }),
    is_tablet: t.Boolean({ description: 'device.type is tablet.' }),
  }),
  examples: [
    {
      name: 'Chrome on Windows',
      input: {
        ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      },
      output: {
        browser: { name: 'Chrome', version: '120.0.0.0', major: '120' },
        engine: { name: 'Blink', version: '120.0.0.0' },
        os: { name: 'Windows', version: '10' },
        device: { type: null, vendor: null, model: null },
        cpu: 'amd64',
        is_bot: false,
        bot_name: null,
        is_mobile: false,
        is_tablet: false,
      },
    },
  ],
})
