import UAParser from 'ua-parser-js'
import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

/**
 * Automated clients: crawlers (…bot, crawl, spider, slurp; "cubot" is a phone brand, not a bot), link-preview
 * fetchers, headless/automation browsers, and HTTP libraries and command-line tools. Documented in the manifest.
 */
export const BOT =
  /(?<!cu)bot|crawl|spider|slurp|mediapartners-google|ia_archiver|facebookexternalhit|facebookcatalog|embedly|preview|whatsapp\/|feedfetcher|lighthouse|headless|phantomjs|puppeteer|playwright|selenium|chatgpt-user|claude-web|anthropic-ai|perplexity|curl\/|wget\/|python-requests|python-urllib|python-httpx|aiohttp|go-http-client|java\/\d|apache-httpclient|libwww-perl|node-fetch|axios\/|undici|scrapy|httpie|postmanruntime|insomnia/i

/** The product token around the bot match, without its version: "Googlebot/2.1" -> "Googlebot". */
function botName(ua: string): string | null {
  const m = BOT.exec(ua)
  if (!m) return null
  const tok = /[A-Za-z0-9_.!-]*$/.exec(ua.slice(0, m.index))![0] + /^[A-Za-z0-9_.! -]*/.exec(ua.slice(m.index))![0]
  return tok.trim().replace(/[\s;.-]+$/, '') || m[0]
}

const n = (v: string | undefined) => v || null

export default handlerFor(manifest, ({ ua }) => {
  const r = new UAParser(ua).getResult()
  const bot = botName(ua)
  return {
    browser: { name: n(r.browser.name), version: n(r.browser.version), major: n(r.browser.major) },
    engine: { name: n(r.engine.name), version: n(r.engine.version) },
    os: { name: n(r.os.name), version: n(r.os.version) },
    device: { type: n(r.device.type), vendor: n(r.device.vendor), model: n(r.device.model) },
    cpu: n(r.cpu.architecture),
    is_bot: bot !== null,
    bot_name: bot,
    is_mobile: r.device.type === 'mobile',
    is_tablet: r.device.type === 'tablet',
  }
})
