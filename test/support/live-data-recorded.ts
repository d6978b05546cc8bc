/**
 * Recorded upstream answers of the live-data services (each upstream's real format, docs/peers-and-references.md §5,
 * including their error forms) and a loopback server answering them, shared by services/<slug>/upstream.test.ts.
 * No test reaches the internet.
 */
import { afterAll } from 'bun:test'
import { entries } from './entries'
import { issues } from '../../runtime/validate'
import { expect } from 'bun:test'
import { ctxWith, fixtureUpstreams, json, neverAnswers, serve, upstreamFailure } from '../net/support'

/** Open-Meteo's recorded `forecast?current=…` answer (Berlin). */
export const FORECAST_CURRENT = {
  latitude: 52.52,
  longitude: 13.419998,
  generationtime_ms: 0.05,
  utc_offset_seconds: 7200,
  timezone: 'Europe/Berlin',
  timezone_abbreviation: 'CEST',
  elevation: 38,
  current_units: {
    time: 'iso8601',
    interval: 'seconds',
    temperature_2m: '°C',
    relative_humidity_2m: '%',
    apparent_temperature: '°C',
    is_day: '',
    precipitation: 'mm',
    weather_code: 'wmo code',
    cloud_cover: '%',
    pressure_msl: 'hPa',
    wind_speed_10m: 'km/h',
    wind_direction_10m: '°',
    wind_gusts_10m: 'km/h',
  },
  current: {
    time: '2024-05-02T14:00',
    interval: 900,
    temperature_2m: 18.3,
    relative_humidity_2m: 52,
    apparent_temperature: 16.9,
    is_day: 1,
    precipitation: 0,
    weather_code: 2,
    cloud_cover: 41,
    pressure_msl: 1016.2,
    wind_speed_10m: 11.2,
    wind_direction_10m: 250,
    wind_gusts_10m: 24.5,
  },
}
const FORECAST_DAILY = {
  latitude: 52.52,
  longitude: 13.419998,
  generationtime_ms: 0.1,
  utc_offset_seconds: 7200,
  timezone: 'Europe/Berlin',
  timezone_abbreviation: 'CEST',
  elevation: 38,
  daily_units: {
    time: 'iso8601',
    weather_code: 'wmo code',
    temperature_2m_max: '°C',
    temperature_2m_min: '°C',
    precipitation_sum: 'mm',
    wind_speed_10m_max: 'km/h',
  },
  daily: {
    time: ['2024-05-02', '2024-05-03'],
    weather_code: [3, 61],
    temperature_2m_max: [19.8, 16.2],
    temperature_2m_min: [9.1, 10.4],
    apparent_temperature_max: [18.2, 14.8],
    apparent_temperature_min: [6.9, 8.8],
    precipitation_sum: [0, 2.4],
    precipitation_probability_max: [10, 71],
    wind_speed_10m_max: [14.1, 18.7],
    wind_gusts_10m_max: [30.2, 39.6],
    sunrise: ['2024-05-02T05:32', '2024-05-03T05:30'],
    sunset: ['2024-05-02T20:33', '2024-05-03T20:35'],
    uv_index_max: [4.9, 3.1],
  },
}
const AIR = {
  latitude: 48.85,
  longitude: 2.35,
  generationtime_ms: 0.2,
  utc_offset_seconds: 7200,
  timezone: 'Europe/Paris',
  timezone_abbreviation: 'CEST',
  elevation: 43,
  current_units: {
    time: 'iso8601',
    interval: 'seconds',
    us_aqi: 'USAQI',
    european_aqi: 'EAQI',
    pm2_5: 'μg/m³',
    pm10: 'μg/m³',
    ozone: 'μg/m³',
    nitrogen_dioxide: 'μg/m³',
    sulphur_dioxide: 'μg/m³',
    carbon_monoxide: 'μg/m³',
    uv_index: '',
  },
  current: {
    time: '2024-05-02T14:00',
    interval: 3600,
    us_aqi: 151,
    european_aqi: 27,
    pm2_5: 7.9,
    pm10: 12.4,
    ozone: 88,
    nitrogen_dioxide: 14.2,
    sulphur_dioxide: 1.3,
    carbon_monoxide: 180,
    uv_index: 4.15,
  },
}
const GEO_BERLIN = {
  results: [
    {
      id: 2950159,
      name: 'Berlin',
      latitude: 52.52437,
      longitude: 13.41053,
      elevation: 74,
      feature_code: 'PPLC',
      country_code: 'DE',
      admin1_id: 2950157,
      timezone: 'Europe/Berlin',
      population: 3426354,
      postcodes: ['10967', '13347'],
      country_id: 2921044,
      country: 'Germany',
      admin1: 'State of Berlin',
    },
    {
      id: 5083330,
      name: 'Berlin',
      latitude: 44.46867,
      longitude: -71.18508,
      elevation: 311,
      feature_code: 'PPL',
      country_code: 'US',
      admin1_id: 5090174,
      admin2_id: 5084973,
      timezone: 'America/New_York',
      population: 9367,
      postcodes: ['03570'],
      country_id: 6252001,
      country: 'United States',
      admin1: 'New Hampshire',
      admin2: 'Coos',
    },
  ],
  generationtime_ms: 0.9,
}
const ECB_USD = {
  amount: 1,
  base: 'USD',
  date: '2024-05-02',
  rates: { AUD: 1.5275, EUR: 0.93336, GBP: 0.79724, JPY: 155.15 },
}
const ECB_EUR = { amount: 1, base: 'EUR', date: '2024-05-02', rates: { USD: 1.0714, GBP: 0.85415, JPY: 166.23 } }
const CURRENCIES = {
  AUD: 'Australian Dollar',
  EUR: 'Euro',
  GBP: 'British Pound',
  JPY: 'Japanese Yen',
  USD: 'United States Dollar',
}
const COINGECKO = {
  bitcoin: {
    usd: 67187.33589365664,
    usd_market_cap: 1317802988326.2493,
    usd_24h_vol: 31260929299.52484,
    usd_24h_change: 3.637278946773539,
    eur: 62686.16,
    eur_market_cap: 1229546054453.7,
    eur_24h_vol: 29166797561.1,
    eur_24h_change: 3.52,
    last_updated_at: 1714658400,
  },
  ethereum: {
    usd: 3135.12,
    usd_market_cap: 376531925345.41,
    usd_24h_vol: 14211032998.12,
    usd_24h_change: 2.01,
    eur: 2925.1,
    eur_market_cap: 351300000000,
    eur_24h_vol: 13259000000,
    eur_24h_change: 1.9,
    last_updated_at: 1714658390,
  },
}
const WIKI_TURING = {
  type: 'standard',
  title: 'Alan_Turing',
  displaytitle: '<span class="mw-page-title-main">Alan Turing</span>',
  namespace: { id: 0, text: '' },
  wikibase_item: 'Q7251',
  titles: {
    canonical: 'Alan_Turing',
    normalized: 'Alan Turing',
    display: '<span class="mw-page-title-main">Alan Turing</span>',
  },
  pageid: 1208,
  thumbnail: {
    source:
      'https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Alan_Turing_Aged_16.jpg/320px-Alan_Turing_Aged_16.jpg',
    width: 320,
    height: 404,
  },
  originalimage: {
    source: 'https://upload.wikimedia.org/wikipedia/commons/a/a1/Alan_Turing_Aged_16.jpg',
    width: 1023,
    height: 1291,
  },
  lang: 'en',
  dir: 'ltr',
  revision: '1221794213',
  tid: 'a1b2',
  timestamp: '2024-05-01T12:00:00Z',
  description: 'English computer scientist (1912–1954)',
  description_source: 'local',
  content_urls: {
    desktop: {
      page: 'https://en.wikipedia.org/wiki/Alan_Turing',
      revisions: 'https://en.wikipedia.org/wiki/Alan_Turing?action=history',
      edit: 'https://en.wikipedia.org/wiki/Alan_Turing?action=edit',
      talk: 'https://en.wikipedia.org/wiki/Talk:Alan_Turing',
    },
    mobile: { page: 'https://en.m.wikipedia.org/wiki/Alan_Turing' },
  },
  extract:
    'Alan Mathison Turing was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.',
  extract_html:
    '<p><b>Alan Mathison Turing</b> was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.</p>',
}
const WIKI_404 = {
  type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found',
  title: 'Not found.',
  method: 'get',
  detail: 'Page or revision not found.',
  uri: '/en.wikipedia.org/v1/page/summary/Nope_Nope',
}
export const HN = {
  hits: [
    {
      _highlightResult: {},
      _tags: ['story', 'author_jarredsumner', 'story_32523181'],
      author: 'jarredsumner',
      children: [],
      created_at: '2022-07-05T15:18:42Z',
      created_at_i: 1657034322,
      num_comments: 643,
      objectID: '32523181',
      points: 1734,
      story_id: 32523181,
      title: 'Bun: a fast all-in-one JavaScript runtime',
      updated_at: '2024-01-01T00:00:00Z',
      url: 'https://bun.sh',
    },
    {
      _highlightResult: {},
      _tags: ['comment', 'author_pg', 'story_32523181'],
      author: 'pg',
      comment_text: '<p>Fast &amp; <i>small</i>.<p>Second line',
      created_at: '2022-07-05T16:00:00Z',
      created_at_i: 1657036800,
      objectID: '32523999',
      parent_id: 32523181,
      story_id: 32523181,
      story_title: 'Bun: a fast all-in-one JavaScript runtime',
      story_url: 'https://bun.sh',
      points: null,
      num_comments: null,
    },
  ],
  nbHits: 412,
  page: 0,
  nbPages: 50,
  hitsPerPage: 2,
  exhaustiveNbHits: true,
  query: 'bun',
  params: 'query=bun&hitsPerPage=2',
  processingTimeMS: 3,
}
const HN_EMPTY = {
  hits: [],
  nbHits: 0,
  page: 0,
  nbPages: 0,
  hitsPerPage: 20,
  exhaustiveNbHits: true,
  query: 'zzzqqq',
  params: 'query=zzzqqq',
  processingTimeMS: 1,
}
export const doh = (
  name: string,
  type: number,
  answers: Array<[number, number, string]>,
  status = 0,
  extra: Record<string, unknown> = {},
) => ({
  Status: status,
  TC: false,
  RD: true,
  RA: true,
  AD: false,
  CD: false,
  Question: [{ name: `${name}.`, type }],
  ...(answers.length
    ? { Answer: answers.map(([t, ttl, data]) => ({ name: `${name}.`, type: t, TTL: ttl, data })) }
    : {}),
  ...extra,
})
const IPWHOIS = {
  ip: '8.8.8.8',
  success: true,
  type: 'IPv4',
  continent: 'North America',
  continent_code: 'NA',
  country: 'United States',
  country_code: 'US',
  region: 'California',
  region_code: 'CA',
  city: 'Mountain View',
  latitude: 37.3860517,
  longitude: -122.0838511,
  is_eu: false,
  postal: '94039',
  calling_code: '1',
  capital: 'Washington D.C.',
  borders: 'CA,MX',
  flag: { img: 'https://cdn.ipwhois.io/flags/us.svg', emoji: '🇺🇸', emoji_unicode: 'U+1F1FA U+1F1F8' },
  connection: { asn: 15169, org: 'Google LLC', isp: 'Google LLC', domain: 'google.com' },
  timezone: {
    id: 'America/Los_Angeles',
    abbr: 'PDT',
    is_dst: true,
    offset: -25200,
    utc: '-07:00',
    current_time: '2024-05-02T07:00:00-07:00',
  },
}

/**
 * Starts the recorded upstream for one test file (stopped after it). `mode[prefix]` switches a path prefix to an
 * error form: '500' | 'hang' | 'garbage'.
 */
export function recordedUpstreams() {
  const mode: Record<string, string> = {}
  const up = serve((req, url) => {
    const p = url.pathname
    const q = url.searchParams
    const m = mode[p.split('/')[1]]
    if (m === '500') return json({ error: 'Internal Server Error' }, 500)
    if (m === 'hang') return neverAnswers(req)
    if (m === 'garbage')
      return new Response('<html><body>502 Bad Gateway</body></html>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      })
    if (p === '/meteo/forecast') {
      if (Number(q.get('latitude')) > 90)
        return json({ error: true, reason: 'Latitude must be in range of -90 to 90°. Given: 91.0.' }, 400)
      if (q.get('current'))
        return json(
          q.get('temperature_unit') === 'fahrenheit'
            ? {
                ...FORECAST_CURRENT,
                current_units: { ...FORECAST_CURRENT.current_units, temperature_2m: '°F' },
                current: { ...FORECAST_CURRENT.current, temperature_2m: 64.9 },
              }
            : FORECAST_CURRENT,
        )
      return json(FORECAST_DAILY)
    }
    if (p === '/air/air-quality')
      return json(
        q.get('latitude') === '0'
          ? {
              ...AIR,
              current: Object.fromEntries(
                Object.keys(AIR.current).map((k) => [
                  k,
                  k === 'time' ? AIR.current.time : k === 'interval' ? 3600 : null,
                ]),
              ),
            }
          : AIR,
      )
    if (p === '/geo/search')
      return json(
        q.get('name') === 'Berlin'
          ? { ...GEO_BERLIN, results: GEO_BERLIN.results.slice(0, Number(q.get('count'))) }
          : { generationtime_ms: 0.4 },
      )
    if (p === '/fx/latest')
      return q.get('base') === 'USD'
        ? json(ECB_USD)
        : q.get('base') === 'EUR'
          ? json(ECB_EUR)
          : json({ message: 'not found' }, 404)
    if (p === '/fx/currencies') return json(CURRENCIES)
    if (p === '/cg/simple/price')
      return json(
        Object.fromEntries(
          Object.entries(COINGECKO)
            .filter(([id]) => q.get('ids')!.split(',').includes(id))
            .map(([id, row]) => [
              id,
              Object.fromEntries(
                Object.entries(row).filter(
                  ([k]) =>
                    k === 'last_updated_at' ||
                    q
                      .get('vs_currencies')!
                      .split(',')
                      .some((v) => k === v || k.startsWith(`${v}_`)),
                ),
              ),
            ]),
        ),
      )
    if (p.startsWith('/wiki/en/page/summary/'))
      return decodeURIComponent(p.split('/').pop()!) === 'Alan_Turing' ? json(WIKI_TURING) : json(WIKI_404, 404)
    if (p === '/hn/search' || p === '/hn/search_by_date') return json(q.get('query') === 'zzzqqq' ? HN_EMPTY : HN)
    if (p === '/doh/dns-query') {
      if (req.headers.get('accept') !== 'application/dns-json') return new Response('bad accept', { status: 415 })
      const name = q.get('name')!
      const type = q.get('type')!
      if (name === 'example.com' && type === 'MX')
        return json(
          doh(name, 15, [
            [15, 3600, '10 mx1.example.com.'],
            [15, 3600, '20 mx2.example.com.'],
          ]),
        )
      if (name === 'example.com' && type === 'TXT')
        return json(
          doh(name, 16, [
            [16, 300, '"v=spf1 -all"'],
            [16, 120, '"part one " "part two \\"quoted\\""'],
          ]),
        )
      if (name === 'www.example.com' && type === 'A')
        return json({
          ...doh(name, 1, [
            [5, 60, 'example.com.'],
            [1, 30, '93.184.215.14'],
          ]),
          AD: true,
        })
      if (name === 'xn--bcher-kva.example' && type === 'A') return json(doh(name, 1, [[1, 60, '192.0.2.7']]))
      if (name === 'nxdomain.example')
        return json(
          doh(name, 1, [], 3, {
            Authority: [
              {
                name: 'example.',
                type: 6,
                TTL: 900,
                data: 'a.iana-servers.net. noc.dns.icann.org. 1 1800 900 604800 86400',
              },
            ],
          }),
        )
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
  return { up, mode, ctx, failureForms, upstreams }
}

/** Asserts an answer matches the service's declared output schema. */
export function conforms(slug: string, out: unknown) {
  expect(issues(entries.find((e) => e.folder === slug)!.manifest.output, out)).toEqual([])
}
