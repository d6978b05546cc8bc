import UAParser from 'ua-parser-js'
import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

const BOT = /bot|crawl|spider|slurp|curl\/|wget|python-requests|httpclient|headless|lighthouse|facebookexternalhit|preview/i
const n = (v: string | undefined) => v ?? null

export default handlerFor(manifest, ({ ua }) => {
  const r = new UAParser(ua).getResult()
  return {
    browser: { name: n(r.browser.name), version: n(r.browser.version), major: n(r.browser.major) },
    engine: { name: n(r.engine.name), version: n(r.engine.version) },
    os: { name: n(r.os.name), version: n(r.os.version) },
    device: { type: n(r.device.type), vendor: n(r.device.vendor), model: n(r.device.model) },
    cpu: n(r.cpu.architecture), is_bot: BOT.test(ua), is_mobile: r.device.type === 'mobile',
  }
})
