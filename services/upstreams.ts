import type { UpstreamDefault } from '../runtime/sdk'

/**
 * The live-data upstreams the services use (name → default base URL, time budget, terms, attribution): the one
 * declaration of an upstream. A manifest names it in `upstreams: [...]`, its handler returns its attribution as
 * `ctx.upstream(name).attribution` (test/net/upstream.test.ts checks every manifest's upstreams are declared here).
 *
 * Config: registry.yaml `upstreams.<name>` and env `UPSTREAM_<NAME>_URL` / `UPSTREAM_<NAME>_KEY`, NAME = the key
 * below in upper snake case (`open-meteo-air-quality` → `UPSTREAM_OPEN_METEO_AIR_QUALITY_URL`). A key, when
 * configured, is sent as query parameter `keyParam` or header `keyHeader`.
 */

const OPEN_METEO_TERMS =
  'Free API: non-commercial use only, 600 calls/min, 5,000/h, 10,000/day per IP. Commercial use needs an API key on the customer- hosts (set UPSTREAM_<NAME>_URL to https://customer-api.open-meteo.com/v1 etc. and UPSTREAM_<NAME>_KEY) or a self-hosted instance. Data CC BY 4.0, attribution required.'

export const upstreams = {
  'open-meteo': {
    url: 'https://api.open-meteo.com/v1',
    timeoutMs: 6000,
    terms: OPEN_METEO_TERMS,
    attribution: {
      source: 'Open-Meteo.com weather API',
      url: 'https://open-meteo.com/en/terms',
      license: 'CC BY 4.0',
      terms: 'free tier non-commercial; commercial use needs an Open-Meteo API plan',
    },
    keyParam: 'apikey',
  },
  'open-meteo-air-quality': {
    url: 'https://air-quality-api.open-meteo.com/v1',
    timeoutMs: 6000,
    terms: OPEN_METEO_TERMS + ' Air-quality data from CAMS (Copernicus Atmosphere Monitoring Service).',
    attribution: {
      source: 'Open-Meteo.com air quality API (CAMS data)',
      url: 'https://open-meteo.com/en/terms',
      license: 'CC BY 4.0',
      terms: 'free tier non-commercial; commercial use needs an Open-Meteo API plan',
    },
    keyParam: 'apikey',
  },
  'open-meteo-geocoding': {
    url: 'https://geocoding-api.open-meteo.com/v1',
    timeoutMs: 6000,
    terms: OPEN_METEO_TERMS + ' Place data from GeoNames (CC BY 4.0).',
    attribution: {
      source: 'Open-Meteo.com geocoding API (GeoNames data)',
      url: 'https://open-meteo.com/en/terms',
      license: 'CC BY 4.0',
      terms: 'free tier non-commercial; commercial use needs an Open-Meteo API plan',
    },
    keyParam: 'apikey',
  },
  frankfurter: {
    url: 'https://api.frankfurter.dev/v1',
    timeoutMs: 6000,
    terms:
      'Open source, no key and no quota (abuse throttling only). Serves the European Central Bank euro foreign exchange reference rates, published about 16:00 CET on TARGET working days.',
    attribution: {
      source: 'European Central Bank euro reference rates, via Frankfurter (frankfurter.dev)',
      url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
      license: 'ECB statistics, free reuse with source acknowledged',
      terms: 'reference rates for information only, not transaction rates',
    },
  },
  coingecko: {
    url: 'https://api.coingecko.com/api/v3',
    timeoutMs: 6000,
    terms:
      'Keyless public tier is rate-limited (about 5-15 calls/min) and unstable; a Demo key (x-cg-demo-api-key, about 30/min, 10k/month) or a paid plan (set URL to https://pro-api.coingecko.com/api/v3 and keyHeader x-cg-pro-api-key) is expected for production. Attribution to CoinGecko required.',
    attribution: {
      source: 'CoinGecko',
      url: 'https://www.coingecko.com/en/api_terms',
      license: 'CoinGecko API terms',
      terms: 'attribution "Data provided by CoinGecko" required; free tier rate-limited',
    },
    keyHeader: 'x-cg-demo-api-key',
  },
  wikipedia: {
    url: 'https://{lang}.wikipedia.org/api/rest_v1',
    timeoutMs: 6000,
    terms:
      'Wikimedia REST API: at most 200 requests/s, a descriptive User-Agent with contact is required. Text CC BY-SA 4.0 (attribute and link the article).',
    attribution: {
      source: 'Wikipedia, the free encyclopedia (Wikimedia REST API)',
      url: 'https://foundation.wikimedia.org/wiki/Policy:Terms_of_Use',
      license: 'CC BY-SA 4.0',
      terms: 'attribute Wikipedia and link the article; share alike',
    },
  },
  'hn-algolia': {
    url: 'https://hn.algolia.com/api/v1',
    timeoutMs: 6000,
    terms: 'Public HN Search API by Algolia, no key, about 10,000 requests/h per IP; at most 1,000 hits per query.',
    attribution: {
      source: 'Hacker News Search by Algolia',
      url: 'https://hn.algolia.com/api',
      license: 'Hacker News content, Y Combinator terms',
      terms: 'public API, about 10,000 requests/h',
    },
  },
  doh: {
    url: 'https://cloudflare-dns.com',
    timeoutMs: 5000,
    terms:
      'Cloudflare DNS over HTTPS, JSON API (accept: application/dns-json), no key. Google (https://dns.google, path /resolve) answers the same JSON but on another path; keep the Cloudflare path /dns-query.',
    attribution: {
      source: 'Cloudflare 1.1.1.1 DNS over HTTPS',
      url: 'https://developers.cloudflare.com/1.1.1.1/privacy/public-dns-resolver/',
      license: 'DNS data (public)',
      terms: 'public resolver, no key',
    },
  },
  ipwhois: {
    url: 'https://ipwho.is',
    timeoutMs: 5000,
    terms:
      'ipwho.is free tier: no key, about 1 request/s and 60/min per client IP, non-commercial; paid plans use ?key=. Set UPSTREAM_IPWHOIS_KEY for commercial use.',
    attribution: {
      source: 'ipwho.is IP geolocation',
      url: 'https://ipwhois.io/documentation',
      license: 'ipwhois.io terms',
      terms: 'free tier rate-limited and non-commercial; paid plan needs a key',
    },
    keyParam: 'key',
  },
} satisfies Record<string, UpstreamDefault>
