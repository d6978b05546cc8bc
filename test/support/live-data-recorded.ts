/**
 * The loopback upstream of the live-data services: it answers each upstream's requests with the answers recorded
 * beside the service that calls it (services/<slug>/recorded.json: each upstream's real format,
 * docs/peers-and-references.md §5), plus their error forms. Shared by services/<slug>/upstream.test.ts.
 * No test reaches the internet.
 */
import { afterAll } from 'bun:test'
import { entries } from './entries'
import { issues } from '../../runtime/validate'
import { expect } from 'bun:test'
import { ctxWith, fixtureUpstreams, json, neverAnswers, serve, upstreamFailure } from '../net/support'
import airQuality from '../../services/air-quality/recorded.json'
import cryptoPrice from '../../services/crypto-price/recorded.json'
import dnsLookup from '../../services/dns-lookup/recorded.json'
import fxRate from '../../services/fx-rate/recorded.json'
import geocode from '../../services/geocode/recorded.json'
import hnSearch from '../../services/hn-search/recorded.json'
import ipGeolocate from '../../services/ip-geolocate/recorded.json'
import weatherCurrent from '../../services/weather-current/recorded.json'
import weatherForecast from '../../services/weather-forecast/recorded.json'
import wikipediaSummary from '../../services/wikipedia-summary/recorded.json'

/** Open-Meteo's recorded `forecast?current=…` answer (Berlin). */
export const FORECAST_CURRENT = weatherCurrent['open-meteo forecast?current']
const FORECAST_DAILY = weatherForecast['open-meteo forecast?daily']
const AIR = airQuality['open-meteo-air-quality air-quality?current']
const GEO_BERLIN = geocode['open-meteo-geocoding search?name=Berlin']
const ECB_USD = fxRate['frankfurter latest?base=USD']
const ECB_EUR = fxRate['frankfurter latest?base=EUR']
const CURRENCIES = fxRate['frankfurter currencies']
const COINGECKO = cryptoPrice['coingecko simple/price (every id and currency)']
const WIKI_TURING = wikipediaSummary['wikipedia page/summary/Alan_Turing']
const WIKI_404 = wikipediaSummary['wikipedia 404']
const HN = hnSearch['hn-algolia search?query=bun']
const HN_EMPTY = hnSearch['hn-algolia search?query=zzzqqq']
/** dns-lookup's recorded DoH answers, by `name type`. */
const DOH: Record<string, unknown> = dnsLookup
const IPWHOIS = ipGeolocate['ipwhois 8.8.8.8']

/** A DoH JSON answer (Cloudflare's format), for a query nothing was recorded for: no answer. */
const doh = (
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
      const recorded = DOH[`${name} ${q.get('type')}`]
      if (recorded) return json(recorded)
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
