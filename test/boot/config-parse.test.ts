/**
 * registry.yaml parsing: `bun start` reads the configuration once (runtime/index.ts passes it to boot); each read
 * gets a document of its own, so what one read writes into its config (environment overlays on `upstreams` and
 * `services`) never shows in another's. The shipped registry.yaml is parsed by Bun's built-in parser, any other
 * text by the `yaml` package: both must give the same document for the shipped file.
 */
import { expect, test } from 'bun:test'
import { parse } from 'yaml'
import shipped from '../../registry.yaml' with { type: 'text' }
import { loadConfig, SHIPPED_REGISTRY_SHA256 } from '../../runtime/config'

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')

test('SHIPPED_REGISTRY_SHA256 is the hash of the committed registry.yaml', () => {
  const actual = sha256(shipped as unknown as string)
  if (actual !== SHIPPED_REGISTRY_SHA256)
    throw new Error(
      `registry.yaml changed: set SHIPPED_REGISTRY_SHA256 in runtime/config/registry-yaml.ts to '${actual}' ` +
        '(until then the shipped file is parsed by the yaml package, a slower boot)',
    )
})

test("the shipped registry.yaml: Bun's parser gives the document the yaml package gives", () => {
  const text = shipped as unknown as string
  expect(text).toContain('provider:')
  expect(Bun.YAML.parse(text)).toStrictEqual(parse(text))
  expect(JSON.stringify(Bun.YAML.parse(text))).toBe(JSON.stringify(parse(text)))
})

test('a text that differs from the shipped file goes through the yaml package, even the shipped file edited', () => {
  // An edited checkout embeds the edited file: a second `services:` block must be reported, not silently merged.
  const text = shipped as unknown as string
  const edited = `${text}\nservices:\n  slugify:\n    price_usd: 0.5\n`
  expect(text).toContain('\nservices:')
  expect(loadConfig({}, edited).problems.filter((p) => p.startsWith('registry.yaml: '))).toHaveLength(1)
  expect(loadConfig({}, text).problems.filter((p) => p.startsWith('registry.yaml: '))).toHaveLength(0)
})

test('an operator-written text goes through the yaml package: its strict rules hold (a duplicate key is an error)', () => {
  // Bun's parser would take the last value silently; the yaml package refuses the file.
  const twice = 'demo:\n  tier: quick\ndemo:\n  tier: pro\n'
  expect(loadConfig({}, twice).problems.filter((p) => p.startsWith('registry.yaml: '))).toHaveLength(1)
  // and YAML 1.2 core schema: an unquoted 0x… is a number there, so the address check names it
  const problems = loadConfig({}, 'payment:\n  pay_to: 0x209693Bc6afc0C5328bA36FaF03C514EF312287C\n').problems
  expect(problems.some((p) => p.startsWith('PAY_TO must be a 0x address'))).toBe(true)
})

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
