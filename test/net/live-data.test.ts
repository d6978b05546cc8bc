/**
 * Live-data services against loopback upstreams answering recorded responses in each upstream's real format
 * (docs/peers-and-references.md §5), including their error forms.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { issues } from '../../runtime/validate'
import type { ServiceManifest } from '../../runtime/sdk'
import weatherCurrentHandler from '../../services/weather-current/handler'
import weatherCurrentManifest from '../../services/weather-current/manifest'
import weatherForecastHandler from '../../services/weather-forecast/handler'
import weatherForecastManifest from '../../services/weather-forecast/manifest'
import airQualityHandler from '../../services/air-quality/handler'
import airQualityManifest from '../../services/air-quality/manifest'
import geocodeHandler from '../../services/geocode/handler'
import geocodeManifest from '../../services/geocode/manifest'
import fxRateHandler from '../../services/fx-rate/handler'
import fxRateManifest from '../../services/fx-rate/manifest'
import { easterSunday, fxTtl, nextPublication } from '../../services/fx-rate/lib'
import cryptoPriceHandler from '../../services/crypto-price/handler'
import cryptoPriceManifest from '../../services/crypto-price/manifest'
import wikipediaSummaryHandler from '../../services/wikipedia-summary/handler'
import wikipediaSummaryManifest from '../../services/wikipedia-summary/manifest'
import hnSearchHandler from '../../services/hn-search/handler'
import hnSearchManifest from '../../services/hn-search/manifest'
import dnsLookupHandler, { txtValue } from '../../services/dns-lookup/handler'
import dnsLookupManifest from '../../services/dns-lookup/manifest'
import ipGeolocateHandler from '../../services/ip-geolocate/handler'
import ipGeolocateManifest from '../../services/ip-geolocate/manifest'
import { entries } from '../../runtime/registry.gen'
import { ctxWith, fixtureUpstreams, json, neverAnswers, serve, serviceError, upstreamFailure, typed } from './support'

const weatherCurrent = typed(weatherCurrentManifest, weatherCurrentHandler)
const weatherForecast = typed(weatherForecastManifest, weatherForecastHandler)
const airQuality = typed(airQualityManifest, airQualityHandler)
const geocode = typed(geocodeManifest, geocodeHandler)
const fxRate = typed(fxRateManifest, fxRateHandler)
const cryptoPrice = typed(cryptoPriceManifest, cryptoPriceHandler)
const wikipediaSummary = typed(wikipediaSummaryManifest, wikipediaSummaryHandler)
const hnSearch = typed(hnSearchManifest, hnSearchHandler)
const dnsLookup = typed(dnsLookupManifest, dnsLookupHandler)
const ipGeolocate = typed(ipGeolocateManifest, ipGeolocateHandler)

const manifest = (slug: string) => entries.find((e) => e.folder === slug)!.manifest as ServiceManifest
const conforms = (slug: string, out: unknown) => expect(issues(manifest(slug).output, out)).toEqual([])

// ---- recorded upstream answers -------------------------------------------------------------------------------
const FORECAST_CURRENT = {
  latitude: 52.52, longitude: 13.419998, generationtime_ms: 0.05, utc_offset_seconds: 7200, timezone: 'Europe/Berlin', timezone_abbreviation: 'CEST', elevation: 38,
  current_units: { time: 'iso8601', interval: 'seconds', temperature_2m: '°C', relative_humidity_2m: '%', apparent_temperature: '°C', is_day: '', precipitation: 'mm', weather_code: 'wmo code', cloud_cover: '%', pressure_msl: 'hPa', wind_speed_10m: 'km/h', wind_direction_10m: '°', wind_gusts_10m: 'km/h' },
  current: { time: '2024-05-02T14:00', interval: 900, temperature_2m: 18.3, relative_humidity_2m: 52, apparent_temperature: 16.9, is_day: 1, precipitation: 0, weather_code: 2, cloud_cover: 41, pressure_msl: 1016.2, wind_speed_10m: 11.2, wind_direction_10m: 250, wind_gusts_10m: 24.5 },
}
const FORECAST_DAILY = {
  latitude: 52.52, longitude: 13.419998, generationtime_ms: 0.1, utc_offset_seconds: 7200, timezone: 'Europe/Berlin', timezone_abbreviation: 'CEST', elevation: 38,
  daily_units: { time: 'iso8601', weather_code: 'wmo code', temperature_2m_max: '°C', temperature_2m_min: '°C', precipitation_sum: 'mm', wind_speed_10m_max: 'km/h' },
  daily: {
    time: ['2024-05-02', '2024-05-03'], weather_code: [3, 61], temperature_2m_max: [19.8, 16.2], temperature_2m_min: [9.1, 10.4], apparent_temperature_max: [18.2, 14.8], apparent_temperature_min: [6.9, 8.8],
    precipitation_sum: [0, 2.4], precipitation_probability_max: [10, 71], wind_speed_10m_max: [14.1, 18.7], wind_gusts_10m_max: [30.2, 39.6], sunrise: ['2024-05-02T05:32', '2024-05-03T05:30'], sunset: ['2024-05-02T20:33', '2024-05-03T20:35'], uv_index_max: [4.9, 3.1],
  },
}
const AIR = {
  latitude: 48.85, longitude: 2.35, generationtime_ms: 0.2, utc_offset_seconds: 7200, timezone: 'Europe/Paris', timezone_abbreviation: 'CEST', elevation: 43,
  current_units: { time: 'iso8601', interval: 'seconds', us_aqi: 'USAQI', european_aqi: 'EAQI', pm2_5: 'μg/m³', pm10: 'μg/m³', ozone: 'μg/m³', nitrogen_dioxide: 'μg/m³', sulphur_dioxide: 'μg/m³', carbon_monoxide: 'μg/m³', uv_index: '' },
  current: { time: '2024-05-02T14:00', interval: 3600, us_aqi: 151, european_aqi: 27, pm2_5: 7.9, pm10: 12.4, ozone: 88, nitrogen_dioxide: 14.2, sulphur_dioxide: 1.3, carbon_monoxide: 180, uv_index: 4.15 },
}
const GEO_BERLIN = {
  results: [
    { id: 2950159, name: 'Berlin', latitude: 52.52437, longitude: 13.41053, elevation: 74, feature_code: 'PPLC', country_code: 'DE', admin1_id: 2950157, timezone: 'Europe/Berlin', population: 3426354, postcodes: ['10967', '13347'], country_id: 2921044, country: 'Germany', admin1: 'State of Berlin' },
    { id: 5083330, name: 'Berlin', latitude: 44.46867, longitude: -71.18508, elevation: 311, feature_code: 'PPL', country_code: 'US', admin1_id: 5090174, admin2_id: 5084973, timezone: 'America/New_York', population: 9367, postcodes: ['03570'], country_id: 6252001, country: 'United States', admin1: 'New Hampshire', admin2: 'Coos' },
  ],
  generationtime_ms: 0.9,
}
const ECB_USD = { amount: 1, base: 'USD', date: '2024-05-02', rates: { AUD: 1.5275, EUR: 0.93336, GBP: 0.79724, JPY: 155.15 } }
const ECB_EUR = { amount: 1, base: 'EUR', date: '2024-05-02', rates: { USD: 1.0714, GBP: 0.85415, JPY: 166.23 } }
const CURRENCIES = { AUD: 'Australian Dollar', EUR: 'Euro', GBP: 'British Pound', JPY: 'Japanese Yen', USD: 'United States Dollar' }
const COINGECKO = {
  bitcoin: { usd: 67187.33589365664, usd_market_cap: 1317802988326.2493, usd_24h_vol: 31260929299.52484, usd_24h_change: 3.637278946773539, eur: 62686.16, eur_market_cap: 1229546054453.7, eur_24h_vol: 29166797561.1, eur_24h_change: 3.52, last_updated_at: 1714658400 },
  ethereum: { usd: 3135.12, usd_market_cap: 376531925345.41, usd_24h_vol: 14211032998.12, usd_24h_change: 2.01, eur: 2925.1, eur_market_cap: 351300000000, eur_24h_vol: 13259000000, eur_24h_change: 1.9, last_updated_at: 1714658390 },
}
const WIKI_TURING = {
  type: 'standard', title: 'Alan_Turing', displaytitle: '<span class="mw-page-title-main">Alan Turing</span>',
  namespace: { id: 0, text: '' }, wikibase_item: 'Q7251',
  titles: { canonical: 'Alan_Turing', normalized: 'Alan Turing', display: '<span class="mw-page-title-main">Alan Turing</span>' },
  pageid: 1208,
  thumbnail: { source: 'https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Alan_Turing_Aged_16.jpg/320px-Alan_Turing_Aged_16.jpg', width: 320, height: 404 },
  originalimage: { source: 'https://upload.wikimedia.org/wikipedia/commons/a/a1/Alan_Turing_Aged_16.jpg', width: 1023, height: 1291 },
  lang: 'en', dir: 'ltr', revision: '1221794213', tid: 'a1b2', timestamp: '2024-05-01T12:00:00Z', description: 'English computer scientist (1912–1954)', description_source: 'local',
  content_urls: { desktop: { page: 'https://en.wikipedia.org/wiki/Alan_Turing', revisions: 'https://en.wikipedia.org/wiki/Alan_Turing?action=history', edit: 'https://en.wikipedia.org/wiki/Alan_Turing?action=edit', talk: 'https://en.wikipedia.org/wiki/Talk:Alan_Turing' }, mobile: { page: 'https://en.m.wikipedia.org/wiki/Alan_Turing' } },
  extract: 'Alan Mathison Turing was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.',
  extract_html: '<p><b>Alan Mathison Turing</b> was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.</p>',
}
const WIKI_404 = { type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found', title: 'Not found.', method: 'get', detail: 'Page or revision not found.', uri: '/en.wikipedia.org/v1/page/summary/Nope_Nope' }
const HN = {
  hits: [
    { _highlightResult: {}, _tags: ['story', 'author_jarredsumner', 'story_32523181'], author: 'jarredsumner', children: [], created_at: '2022-07-05T15:18:42Z', created_at_i: 1657034322, num_comments: 643, objectID: '32523181', points: 1734, story_id: 32523181, title: 'Bun: a fast all-in-one JavaScript runtime', updated_at: '2024-01-01T00:00:00Z', url: 'https://bun.sh' },
    { _highlightResult: {}, _tags: ['comment', 'author_pg', 'story_32523181'], author: 'pg', comment_text: '<p>Fast &amp; <i>small</i>.<p>Second line', created_at: '2022-07-05T16:00:00Z', created_at_i: 1657036800, objectID: '32523999', parent_id: 32523181, story_id: 32523181, story_title: 'Bun: a fast all-in-one JavaScript runtime', story_url: 'https://bun.sh', points: null, num_comments: null },
  ],
  nbHits: 412, page: 0, nbPages: 50, hitsPerPage: 2, exhaustiveNbHits: true, query: 'bun', params: 'query=bun&hitsPerPage=2', processingTimeMS: 3,
}
const HN_EMPTY = { hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage: 20, exhaustiveNbHits: true, query: 'zzzqqq', params: 'query=zzzqqq', processingTimeMS: 1 }
const doh = (name: string, type: number, answers: Array<[number, number, string]>, status = 0, extra: Record<string, unknown> = {}) => ({
  Status: status, TC: false, RD: true, RA: true, AD: false, CD: false, Question: [{ name: `${name}.`, type }],
  ...(answers.length ? { Answer: answers.map(([t, ttl, data]) => ({ name: `${name}.`, type: t, TTL: ttl, data })) } : {}),
  ...extra,
})
const IPWHOIS = {
  ip: '8.8.8.8', success: true, type: 'IPv4', continent: 'North America', continent_code: 'NA', country: 'United States', country_code: 'US', region: 'California', region_code: 'CA', city: 'Mountain View',
  latitude: 37.3860517, longitude: -122.0838511, is_eu: false, postal: '94039', calling_code: '1', capital: 'Washington D.C.', borders: 'CA,MX',
  flag: { img: 'https://cdn.ipwhois.io/flags/us.svg', emoji: '🇺🇸', emoji_unicode: 'U+1F1FA U+1F1F8' },
  connection: { asn: 15169, org: 'Google LLC', isp: 'Google LLC', domain: 'google.com' },
  timezone: { id: 'America/Los_Angeles', abbr: 'PDT', is_dst: true, offset: -25200, utc: '-07:00', current_time: '2024-05-02T07:00:00-07:00' },
}

// ---- the fixture upstream --------------------------------------------------------------------------------------
/** Modes switch a path to an error form: 'ok' | '500' | 'hang' | 'garbage'. */
const mode: Record<string, string> = {}
const up = serve((req, url) => {
  const p = url.pathname
  const q = url.searchParams
  const m = mode[p.split('/')[1]]
  if (m === '500') return json({ error: 'Internal Server Error' }, 500)
  if (m === 'hang') return neverAnswers(req)
  if (m === 'garbage') return new Response('<html><body>502 Bad Gateway</body></html>', { status: 200, headers: { 'content-type': 'text/html' } })
  if (p === '/meteo/forecast') {
    if (Number(q.get('latitude')) > 90) return json({ error: true, reason: 'Latitude must be in range of -90 to 90°. Given: 91.0.' }, 400)
    if (q.get('current')) return json(q.get('temperature_unit') === 'fahrenheit' ? { ...FORECAST_CURRENT, current_units: { ...FORECAST_CURRENT.current_units, temperature_2m: '°F' }, current: { ...FORECAST_CURRENT.current, temperature_2m: 64.9 } } : FORECAST_CURRENT)
    return json(FORECAST_DAILY)
  }
  if (p === '/air/air-quality') return json(q.get('latitude') === '0' ? { ...AIR, current: Object.fromEntries(Object.keys(AIR.current).map((k) => [k, k === 'time' ? AIR.current.time : k === 'interval' ? 3600 : null])) } : AIR)
  if (p === '/geo/search') return json(q.get('name') === 'Berlin' ? { ...GEO_BERLIN, results: GEO_BERLIN.results.slice(0, Number(q.get('count'))) } : { generationtime_ms: 0.4 })
  if (p === '/fx/latest') return q.get('base') === 'USD' ? json(ECB_USD) : q.get('base') === 'EUR' ? json(ECB_EUR) : json({ message: 'not found' }, 404)
  if (p === '/fx/currencies') return json(CURRENCIES)
  if (p === '/cg/simple/price') return json(Object.fromEntries(Object.entries(COINGECKO).filter(([id]) => q.get('ids')!.split(',').includes(id)).map(([id, row]) => [id, Object.fromEntries(Object.entries(row).filter(([k]) => k === 'last_updated_at' || q.get('vs_currencies')!.split(',').some((v) => k === v || k.startsWith(`${v}_`))))])))
  if (p.startsWith('/wiki/en/page/summary/')) return decodeURIComponent(p.split('/').pop()!) === 'Alan_Turing' ? json(WIKI_TURING) : json(WIKI_404, 404)
  if (p === '/hn/search' || p === '/hn/search_by_date') return json(q.get('query') === 'zzzqqq' ? HN_EMPTY : HN)
  if (p === '/doh/dns-query') {
    if (req.headers.get('accept') !== 'application/dns-json') return new Response('bad accept', { status: 415 })
    const name = q.get('name')!
    const type = q.get('type')!
    if (name === 'example.com' && type === 'MX') return json(doh(name, 15, [[15, 3600, '10 mx1.example.com.'], [15, 3600, '20 mx2.example.com.']]))
    if (name === 'example.com' && type === 'TXT') return json(doh(name, 16, [[16, 300, '"v=spf1 -all"'], [16, 120, '"part one " "part two \\"quoted\\""']]))
    if (name === 'www.example.com' && type === 'A') return json({ ...doh(name, 1, [[5, 60, 'example.com.'], [1, 30, '93.184.215.14']]), AD: true })
    if (name === 'xn--bcher-kva.example' && type === 'A') return json(doh(name, 1, [[1, 60, '192.0.2.7']]))
    if (name === 'nxdomain.example') return json(doh(name, 1, [], 3, { Authority: [{ name: 'example.', type: 6, TTL: 900, data: 'a.iana-servers.net. noc.dns.icann.org. 1 1800 900 604800 86400' }] }))
    if (name === 'servfail.example') return json(doh(name, 1, [], 2, { Comment: 'EDE(22): No Reachable Authority' }))
    return json(doh(name, 28, [], 0))
  }
  if (p.startsWith('/ipwho/')) {
    const ip = decodeURIComponent(p.slice('/ipwho/'.length))
    if (ip === '8.8.8.8') return json(IPWHOIS)
    if (ip === '1.2.3.4') return json({ ip, success: false, message: "You've hit the monthly limit" })
    return json({ ip, success: false, message: 'Invalid IP address' })
  }
  return json({ error: 'no fixture', path: p }, 404)
})
afterAll(() => up.stop())

const upstreams = () =>
  fixtureUpstreams(
    {
      'open-meteo': `${up.url}/meteo`,
      'open-meteo-air-quality': `${up.url}/air`,
      'open-meteo-geocoding': `${up.url}/geo`,
      frankfurter: `${up.url}/fx`,
      coingecko: `${up.url}/cg`,
      wikipedia: `${up.url}/wiki/{lang}`,
      'hn-algolia': `${up.url}/hn`,
      doh: `${up.url}/doh`,
      ipwhois: `${up.url}/ipwho`,
    },
    { timeoutMs: 400 },
  )
const ctx = (now = '2024-05-02T12:00:00Z') => ctxWith({ upstream: upstreams(), now })

/** Runs `call` with the fixture path in an error mode and checks the 502/504 carries upstream and retryable. */
async function failureForms(prefix: string, upstreamName: string, call: () => Promise<unknown>) {
  try {
    mode[prefix] = '500'
    await upstreamFailure(call(), 502, upstreamName, true)
    mode[prefix] = 'garbage'
    await upstreamFailure(call(), 502, upstreamName, true)
    mode[prefix] = 'hang'
    await upstreamFailure(call(), 504, upstreamName, true)
  } finally {
    delete mode[prefix]
  }
}

describe('weather-current', () => {
  test('fields, WMO description, units, attribution', async () => {
    const out = await weatherCurrent({ lat: 52.52, lon: 13.41 }, ctx())
    conforms('weather-current', out)
    expect(out).toMatchObject({ timezone: 'Europe/Berlin', time: '2024-05-02T14:00', temperature: 18.3, humidity_percent: 52, weather_code: 2, conditions: 'Partly cloudy', is_day: true, wind_speed: 11.2, pressure_hpa: 1016.2, units: { temperature: '°C', wind_speed: 'km/h', precipitation: 'mm' } })
    expect(out.attribution.license).toBe('CC BY 4.0')
    expect(out.attribution.terms).toContain('non-commercial')
  })
  test('imperial units are requested from the upstream', async () => {
    const out = await weatherCurrent({ lat: 52.52, lon: 13.41, units: 'imperial' }, ctx())
    expect(out).toMatchObject({ temperature: 64.9, units: { temperature: '°F' } })
  })
  test('coordinates are validated before any call', async () => {
    await serviceError(weatherCurrent({ lat: 91, lon: 0 }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(weatherCurrent({ lat: undefined as unknown as number, lon: 0 }, ctx()), 422, 'INVALID_INPUT')
  })
  test('a burst of 10 identical calls makes one upstream request; later calls within 10 min are cached', async () => {
    const c = ctx()
    const before = up.hits('/meteo/forecast')
    await Promise.all(Array.from({ length: 10 }, () => weatherCurrent({ lat: 40.7128, lon: -74.006 }, c)))
    await weatherCurrent({ lat: 40.71281, lon: -74.00601 }, c)
    expect(up.hits('/meteo/forecast') - before).toBe(1)
  })
  test('upstream 500 / garbage / timeout', () => failureForms('meteo', 'open-meteo', () => weatherCurrent({ lat: 1.5, lon: 1.5 }, ctx())))
})

describe('weather-forecast', () => {
  test('days with conditions', async () => {
    const out = await weatherForecast({ lat: 52.52, lon: 13.41, days: 2 }, ctx())
    conforms('weather-forecast', out)
    expect(out.days).toHaveLength(2)
    expect(out.days[1]).toEqual({ date: '2024-05-03', weather_code: 61, conditions: 'Slight rain', temperature_max: 16.2, temperature_min: 10.4, apparent_temperature_max: 14.8, apparent_temperature_min: 8.8, precipitation_sum: 2.4, precipitation_probability_max: 71, wind_speed_max: 18.7, wind_gusts_max: 39.6, sunrise: '2024-05-03T05:30', sunset: '2024-05-03T20:35', uv_index_max: 3.1 })
    expect(up.requests.at(-1)!.url).toContain('forecast_days=2')
  })
  test('days out of range: 422', async () => {
    await serviceError(weatherForecast({ lat: 1, lon: 1, days: 17 }, ctx()), 422, 'INVALID_INPUT')
  })
})

describe('air-quality', () => {
  test('AQI values and EPA/EEA categories', async () => {
    const out = await airQuality({ lat: 48.85, lon: 2.35 }, ctx())
    conforms('air-quality', out)
    expect(out).toMatchObject({ us_aqi: 151, us_aqi_category: 'Unhealthy', european_aqi: 27, european_aqi_category: 'Fair', pm2_5: 7.9, pm10: 12.4, ozone: 88, uv_index: 4.15 })
    expect(out.units.pm2_5).toBe('μg/m³')
  })
  test('all values null: 404, not an empty 200', async () => {
    await serviceError(airQuality({ lat: 0, lon: 0 }, ctx()), 404, 'NOT_FOUND')
  })
  test('upstream failure forms', () => failureForms('air', 'open-meteo-air-quality', () => airQuality({ lat: 2.5, lon: 2.5 }, ctx())))
})

describe('geocode', () => {
  test('matches with country, admin areas, population', async () => {
    const out = await geocode({ q: 'Berlin', count: 2 }, ctx())
    conforms('geocode', out)
    expect(out.count).toBe(2)
    expect(out.results[0]).toEqual({ id: 2950159, name: 'Berlin', latitude: 52.52437, longitude: 13.41053, country: 'Germany', country_code: 'DE', admin1: 'State of Berlin', admin2: null, timezone: 'Europe/Berlin', population: 3426354, elevation: 74, feature_code: 'PPLC', postcodes: ['10967', '13347'] })
    expect(out.results[1]).toMatchObject({ country_code: 'US', admin2: 'Coos' })
  })
  test('no `results` key (Open-Meteo\'s "no match"): 404 NOT_FOUND', async () => {
    await serviceError(geocode({ q: 'Qwertyuiopville' }, ctx()), 404, 'NOT_FOUND')
  })
  test('one character: 422', async () => {
    await serviceError(geocode({ q: 'B' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('Open-Meteo 400 {error, reason}: 502 not retryable, with the reason', async () => {
    const e = await upstreamFailure(
      (async () => {
        const { openMeteo } = await import('../../services/_lib/live-data')
        return openMeteo(upstreams()('open-meteo'), '/forecast', { latitude: 91, longitude: 0, current: 'x' }, 0)
      })(),
      502,
      'open-meteo',
      false,
    )
    expect(e.message).toContain('Latitude must be in range')
  })
})

describe('fx-rate', () => {
  test('conversion arithmetic: 100 USD → EUR at 0.93336 = 93.336', async () => {
    const out = await fxRate({ from: 'usd', to: 'EUR', amount: 100 }, ctx())
    conforms('fx-rate', out)
    expect(out).toMatchObject({ from: 'USD', to: 'EUR', amount: 100, rate: 0.93336, result: 93.336, inverse_rate: 1.07139796005828, date: '2024-05-02' })
    expect(out.attribution.source).toContain('European Central Bank')
  })
  test('float noise removed: 0.1 EUR → JPY at 166.23 = 16.623', async () => {
    expect((await fxRate({ from: 'EUR', to: 'JPY', amount: 0.1 }, ctx())).result).toBe(16.623)
  })
  test('same currency: rate 1', async () => {
    expect(await fxRate({ from: 'EUR', to: 'EUR', amount: 5 }, ctx())).toMatchObject({ rate: 1, result: 5 })
  })
  test('unknown currencies: 422 with the supported list', async () => {
    const a = await serviceError(fxRate({ from: 'XXX', to: 'EUR' }, ctx()), 422, 'INVALID_INPUT')
    expect(a.message).toContain('AUD, EUR, GBP, JPY, USD')
    const b = await serviceError(fxRate({ from: 'USD', to: 'ABC' }, ctx()), 422, 'INVALID_INPUT')
    expect(b.message).toContain('supported: AUD, EUR, GBP, JPY, USD')
  })
  test('next ECB publication and cache lifetime', () => {
    // Thu 2 May 2024 12:00 UTC (14:00 CEST): next is 16:00 CEST = 14:00 UTC the same day.
    expect(new Date(nextPublication(Date.parse('2024-05-02T12:00:00Z'))).toISOString()).toBe('2024-05-02T14:00:00.000Z')
    // Fri 29 Mar 2024 is Good Friday, Mon 1 Apr Easter Monday (TARGET holidays): Thu 28 Mar 17:00 UTC → Tue 2 Apr 14:00 UTC (CEST).
    expect(new Date(nextPublication(Date.parse('2024-03-28T17:00:00Z'))).toISOString()).toBe('2024-04-02T14:00:00.000Z')
    // Winter (CET): Fri 6 Dec 2024 16:00 UTC → Mon 9 Dec 15:00 UTC.
    expect(new Date(nextPublication(Date.parse('2024-12-06T16:00:00Z'))).toISOString()).toBe('2024-12-09T15:00:00.000Z')
    // 24 Dec 2024 after publication → 27 Dec (25 and 26 are closed).
    expect(new Date(nextPublication(Date.parse('2024-12-24T18:00:00Z'))).toISOString()).toBe('2024-12-27T15:00:00.000Z')
    expect(new Date(easterSunday(2024)).toISOString().slice(0, 10)).toBe('2024-03-31')
    expect(new Date(easterSunday(2025)).toISOString().slice(0, 10)).toBe('2025-04-20')
    // Before publication the cache lasts until it; in the hour after it, 5 minutes.
    expect(fxTtl(Date.parse('2024-05-02T12:00:00Z'))).toBe(2 * 3600_000)
    expect(fxTtl(Date.parse('2024-05-02T14:10:00Z'))).toBe(5 * 60_000)
  })
  test('a burst of 10 identical conversions makes one upstream request', async () => {
    const c = ctx('2024-05-02T10:00:00Z')
    const before = up.hits('/fx/latest')
    await Promise.all(Array.from({ length: 10 }, (_, i) => fxRate({ from: 'EUR', to: 'GBP', amount: i + 1 }, c)))
    await fxRate({ from: 'EUR', to: 'USD' }, c)
    expect(up.hits('/fx/latest') - before).toBe(1)
  })
  test('upstream failure forms', () => failureForms('fx', 'frankfurter', () => fxRate({ from: 'GBP', to: 'EUR' }, ctx())))
})

describe('crypto-price', () => {
  test('prices, market cap, volume, change, last update; input order kept', async () => {
    const out = await cryptoPrice({ ids: 'ethereum, bitcoin', vs: 'usd,eur' }, ctx())
    conforms('crypto-price', out)
    expect(out.count).toBe(4)
    expect(out.prices[2]).toEqual({ id: 'bitcoin', vs: 'usd', price: 67187.33589365664, market_cap: 1317802988326.2493, volume_24h: 31260929299.52484, change_24h_percent: 3.637278946773539, last_updated: '2024-05-02T14:00:00.000Z' })
    expect(out.prices.map((p) => `${p.id}/${p.vs}`)).toEqual(['ethereum/usd', 'ethereum/eur', 'bitcoin/usd', 'bitcoin/eur'])
    expect(out.attribution.source).toBe('CoinGecko')
  })
  test('unknown ids are listed; only unknown ids (CoinGecko {}): 404', async () => {
    const out = await cryptoPrice({ ids: 'bitcoin,not-a-coin' }, ctx())
    expect(out.missing).toEqual(['not-a-coin'])
    await serviceError(cryptoPrice({ ids: 'not-a-coin' }, ctx()), 404, 'NOT_FOUND')
  })
  test('bad ids: 422', async () => {
    await serviceError(cryptoPrice({ ids: 'BTC; DROP' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('cache: 10 calls → 1 upstream hit', async () => {
    const c = ctx()
    const before = up.hits('/cg/')
    await Promise.all(Array.from({ length: 10 }, () => cryptoPrice({ ids: 'bitcoin,ethereum', vs: 'eur' }, c)))
    await cryptoPrice({ ids: 'ethereum,bitcoin', vs: 'eur' }, c)
    expect(up.hits('/cg/') - before).toBe(1)
  })
  test('upstream failure forms', () => failureForms('cg', 'coingecko', () => cryptoPrice({ ids: 'bitcoin', vs: 'gbp' }, ctx())))
})

describe('wikipedia-summary', () => {
  test('fields from the REST summary', async () => {
    const out = await wikipediaSummary({ title: 'Alan Turing' }, ctx())
    conforms('wikipedia-summary', out)
    expect(out).toMatchObject({ title: 'Alan Turing', display_title: 'Alan Turing', type: 'standard', description: 'English computer scientist (1912–1954)', page_id: 1208, url: 'https://en.wikipedia.org/wiki/Alan_Turing', wikidata_id: 'Q7251', coordinates: null, last_edited: '2024-05-01T12:00:00Z' })
    expect(out.extract).toStartWith('Alan Mathison Turing was')
    expect(out.thumbnail).toEqual({ source: 'https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Alan_Turing_Aged_16.jpg/320px-Alan_Turing_Aged_16.jpg', width: 320, height: 404 })
    expect(out.attribution.license).toBe('CC BY-SA 4.0')
    expect(up.requests.at(-1)!.headers.get('user-agent')).toContain('x402-agent-api')
  })
  test('404 problem JSON: 404 NOT_FOUND', async () => {
    await serviceError(wikipediaSummary({ title: 'Nope Nope' }, ctx()), 404, 'NOT_FOUND')
  })
  test('bad lang and title: 422', async () => {
    await serviceError(wikipediaSummary({ title: 'x', lang: 'evil.com' }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(wikipediaSummary({ title: 'a|b' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('upstream failure forms', () => failureForms('wiki', 'wikipedia', () => wikipediaSummary({ title: 'Ada Lovelace' }, ctx())))
})

describe('hn-search', () => {
  test('stories and comments with HN links; HTML stripped', async () => {
    const out = await hnSearch({ query: 'bun', hits_per_page: 2 }, ctx())
    conforms('hn-search', out)
    expect(out).toMatchObject({ total_hits: 412, pages: 50, count: 2, sort: 'relevance' })
    expect(out.hits[0]).toMatchObject({ id: '32523181', type: 'story', url: 'https://bun.sh', hn_url: 'https://news.ycombinator.com/item?id=32523181', points: 1734, num_comments: 643, text: null })
    expect(out.hits[1]).toMatchObject({ type: 'comment', title: 'Bun: a fast all-in-one JavaScript runtime', text: 'Fast & small.\n\nSecond line', parent_id: 32523181, points: null })
  })
  test('sort=date uses search_by_date', async () => {
    const before = up.hits('/hn/search_by_date')
    await hnSearch({ query: 'bun', sort: 'date' }, ctx())
    expect(up.hits('/hn/search_by_date') - before).toBe(1)
  })
  test('no hits: 404; neither query nor tags: 422', async () => {
    await serviceError(hnSearch({ query: 'zzzqqq' }, ctx()), 404, 'NOT_FOUND')
    await serviceError(hnSearch({}, ctx()), 422, 'INVALID_INPUT')
  })
  test('upstream failure forms', () => failureForms('hn', 'hn-algolia', () => hnSearch({ query: 'failure' }, ctx())))
})

describe('dns-lookup', () => {
  test('MX parsing: priority and exchange', async () => {
    const out = await dnsLookup({ name: 'Example.COM.', type: 'MX' }, ctx())
    conforms('dns-lookup', out)
    expect(out.records).toEqual([
      { name: 'example.com', type: 'MX', ttl: 3600, data: '10 mx1.example.com.', value: 'mx1.example.com', priority: 10 },
      { name: 'example.com', type: 'MX', ttl: 3600, data: '20 mx2.example.com.', value: 'mx2.example.com', priority: 20 },
    ])
    expect(out).toMatchObject({ name: 'example.com', type: 'MX', status: 'NOERROR', ttl: 3600, resolver: `127.0.0.1:${up.port}` })
  })
  test('TXT strings unquoted and joined; smallest TTL', async () => {
    const out = await dnsLookup({ name: 'example.com', type: 'txt' as 'TXT' }, ctx())
    expect(out.records.map((r) => r.value)).toEqual(['v=spf1 -all', 'part one part two "quoted"'])
    expect(out.ttl).toBe(120)
    expect(txtValue('"a\\059b"')).toBe('a;b')
  })
  test('CNAME chain and AD flag', async () => {
    const out = await dnsLookup({ name: 'www.example.com' }, ctx())
    expect(out.records.map((r) => [r.type, r.value])).toEqual([['CNAME', 'example.com'], ['A', '93.184.215.14']])
    expect(out.authenticated_data).toBe(true)
  })
  test('internationalised names go out as punycode', async () => {
    const out = await dnsLookup({ name: 'bücher.example' }, ctx())
    expect(out.name).toBe('xn--bcher-kva.example')
  })
  test('NXDOMAIN and NODATA: 404; SERVFAIL: 502 retryable; bad names: 422', async () => {
    await serviceError(dnsLookup({ name: 'nxdomain.example' }, ctx()), 404, 'NOT_FOUND')
    await serviceError(dnsLookup({ name: 'nodata.example', type: 'AAAA' }, ctx()), 404, 'NOT_FOUND')
    const e = await upstreamFailure(dnsLookup({ name: 'servfail.example' }, ctx()), 502, 'doh', true)
    expect(e.message).toContain('SERVFAIL')
    await serviceError(dnsLookup({ name: 'bad name!' }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(dnsLookup({ name: `${'a'.repeat(64)}.com` }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(dnsLookup({ name: 'example.com', type: 'ANY' as 'A' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('cached for the answer TTL: 10 sequential and 10 concurrent calls → 1 upstream hit; expired → fetched again', async () => {
    const u = upstreams()
    const before = up.hits('/doh/')
    const at = (iso: string) => ctxWith({ upstream: u, now: iso })
    await Promise.all(Array.from({ length: 10 }, () => dnsLookup({ name: 'example.com', type: 'MX' }, at('2030-01-01T00:00:00Z'))))
    for (let i = 0; i < 10; i++) await dnsLookup({ name: 'example.com', type: 'MX' }, at('2030-01-01T00:59:59Z'))
    expect(up.hits('/doh/') - before).toBe(1)
    await dnsLookup({ name: 'example.com', type: 'MX' }, at('2030-01-01T01:00:01Z'))
    expect(up.hits('/doh/') - before).toBe(2)
  })
  test('upstream failure forms', () => failureForms('doh', 'doh', () => dnsLookup({ name: 'fail.example', type: 'NS' }, ctx())))
})

describe('ip-geolocate', () => {
  test('location and network', async () => {
    const out = await ipGeolocate({ ip: '8.8.8.8' }, ctx())
    conforms('ip-geolocate', out)
    expect(out).toMatchObject({ ip: '8.8.8.8', type: 'IPv4', country_code: 'US', city: 'Mountain View', latitude: 37.3860517, is_eu: false, flag_emoji: '🇺🇸', connection: { asn: 15169, org: 'Google LLC', isp: 'Google LLC', domain: 'google.com' }, timezone: { id: 'America/Los_Angeles', offset: -25200 } })
  })
  test('private, loopback, reserved and malformed addresses: 422 without a lookup', async () => {
    const before = up.hits('/ipwho/')
    for (const ip of ['10.0.0.1', '127.0.0.1', '::1', '192.168.1.1', '169.254.169.254', '100.64.0.1', 'fe80::1', '0177.0.0.1', 'nope']) await serviceError(ipGeolocate({ ip }, ctx()), 422, 'INVALID_INPUT')
    expect(up.hits('/ipwho/')).toBe(before)
  })
  test('ipwho.is {success:false}: invalid → 422; rate limit → 502 retryable', async () => {
    await serviceError(ipGeolocate({ ip: '2001:4860:4860::8888' }, ctx()), 422, 'INVALID_INPUT')
    await upstreamFailure(ipGeolocate({ ip: '1.2.3.4' }, ctx()), 502, 'ipwhois', true)
  })
  test('upstream failure forms', () => failureForms('ipwho', 'ipwhois', () => ipGeolocate({ ip: '9.9.9.9' }, ctx())))
})
