/**
 * `bun start` reads the configuration twice (runtime/index.ts, then boot) and registry.yaml is parsed once: each
 * call still gets a document of its own, so what one call writes into its config (environment overlays on
 * `upstreams` and `services`) never shows in another's.
 */
import { expect, test } from 'bun:test'
import { loadConfig } from '../../runtime/config'

const yaml = `
payment:
  pay_to: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
services:
  slugify:
    price_usd: 0.002
upstreams:
  weather:
    url: https://weather.example/v1
`

test('two reads of one registry.yaml text give equal, independent configs', () => {
  const a = loadConfig({ UPSTREAM_WEATHER_KEY: 'k-1', UPSTREAM_NEWS_URL: 'https://news.example' }, yaml).config
  const b = loadConfig({}, yaml).config
  expect(a.upstreams).toEqual({
    weather: { url: 'https://weather.example/v1', key: 'k-1' },
    news: { url: 'https://news.example' },
  })
  expect(b.upstreams).toEqual({ weather: { url: 'https://weather.example/v1' } })
  a.services.slugify.price_usd = 1
  expect(loadConfig({}, yaml).config.services).toEqual({ slugify: { price_usd: 0.002 } })
  expect(b.payTo).toBe('0x209693Bc6afc0C5328bA36FaF03C514EF312287C')
})

test('another text is parsed anew, and a text that does not parse is reported on every read', () => {
  expect(loadConfig({}, 'payment:\n  pay_to: "0x0000000000000000000000000000000000000001"\n').config.payTo).toBe(
    '0x0000000000000000000000000000000000000001',
  )
  for (let i = 0; i < 2; i++)
    expect(loadConfig({}, 'payment: [unclosed\n').problems.some((p) => p.startsWith('registry.yaml: '))).toBe(true)
  expect(loadConfig({}, yaml).config.payTo).toBe('0x209693Bc6afc0C5328bA36FaF03C514EF312287C')
})
