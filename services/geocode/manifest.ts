import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema } from '../_lib/live-data'

const ns = (description: string) => t.Union([t.String(), t.Null()], { description })

export default defineService({
  slug: 'geocode',
  name: 'Geocode',
  description:
    'Place name to coordinates with the Open-Meteo geocoding API (GeoNames data): up to 20 matches ranked by relevance and population, each with latitude, longitude, country, ISO country code, first and second administrative areas, IANA time zone, population, elevation and GeoNames feature code. Names need at least 2 characters; an optional ISO country code narrows the search. No match is a 404 NOT_FOUND. Cached 24 h. Data CC BY 4.0 (see attribution).',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['open-meteo-geocoding'],
  input: t.Object(
    {
      q: t.String({
        minLength: 2,
        maxLength: 200,
        description: 'Place name, e.g. "Berlin" or "Springfield" (2-200 characters). Postal codes also match.',
      }),
      count: t.Optional(
        t.Integer({ minimum: 1, maximum: 20, default: 5, description: 'Matches returned at most (1-20, default 5).' }),
      ),
      country_code: t.Optional(
        t.String({
          pattern: '^[A-Za-z]{2}$',
          maxLength: 2,
          description: 'ISO 3166-1 alpha-2 code to restrict the search, e.g. US.',
        }),
      ),
      language: t.Optional(
        t.String({
          pattern: '^[A-Za-z]{2}$',
          maxLength: 2,
          default: 'en',
          description: 'Language of the names (ISO 639-1, default en).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { query: 'q', place: 'q', name: 'q', address: 'q', city: 'q' } },
  output: t.Object({
    query: t.String(),
    count: t.Integer(),
    results: t.Array(
      t.Object({
        id: t.Integer({ description: 'GeoNames id.' }),
        name: t.String(),
        latitude: t.Number(),
        longitude: t.Number(),
        country: ns('Country name.'),
        country_code: ns('ISO 3166-1 alpha-2.'),
        admin1: ns('First-level administrative area (state, region).'),
        admin2: ns('Second-level administrative area (county, district).'),
        timezone: ns('IANA time zone.'),
        population: t.Union([t.Integer(), t.Null()]),
        elevation: t.Union([t.Number(), t.Null()], { description: 'Metres.' }),
        feature_code: ns('GeoNames feature code, e.g. PPLC (capital), PPL (populated place).'),
        postcodes: t.Array(t.String()),
      }),
    ),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Berlin',
      input: { q: 'Berlin', count: 1 },
      output: {
        query: 'Berlin',
        count: 1,
        results: [
          {
            id: 2950159,
            name: 'Berlin',
            latitude: 52.52437,
            longitude: 13.41053,
            country: 'Germany',
            country_code: 'DE',
            admin1: 'State of Berlin',
            admin2: null,
            timezone: 'Europe/Berlin',
            population: 3426354,
            elevation: 74,
            feature_code: 'PPLC',
            postcodes: ['10967', '13347'],
          },
        ],
        attribution: {
          source: 'Open-Meteo.com geocoding API (GeoNames data)',
          url: 'https://open-meteo.com/en/terms',
          license: 'CC BY 4.0',
          terms: 'free tier non-commercial; commercial use needs an Open-Meteo API plan',
        },
      },
    },
  ],
})
