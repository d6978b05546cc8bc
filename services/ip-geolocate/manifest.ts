import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema } from '../_lib/live-data'

const ns = (description: string) => t.Union([t.String(), t.Null()], { description })
const nn = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'ip-geolocate',
  name: 'IP geolocate',
  description:
    'Approximate location and network of a public IPv4 or IPv6 address from ipwho.is: continent, country and ISO code, region, city, postal code, latitude/longitude, EU flag, calling code, capital, time zone, and the ASN, organisation, ISP and domain of the network. Private, loopback, link-local, reserved and other non-global addresses are refused (422) without a lookup. Cached 6 h. City-level positions are estimates, often tens of kilometres off.',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['ipwhois'],
  input: t.Object(
    { ip: t.String({ minLength: 2, maxLength: 45, description: 'Public IPv4 (dotted decimal) or IPv6 address.' }) },
    { additionalProperties: true },
  ),
  aliases: { fields: { address: 'ip', ip_address: 'ip' } },
  output: t.Object({
    ip: t.String({ description: 'The address (canonical text form).' }),
    type: t.Union([t.Literal('IPv4'), t.Literal('IPv6')]),
    continent: ns('Continent name.'),
    continent_code: ns('Two-letter continent code.'),
    country: ns('Country name.'),
    country_code: ns('ISO 3166-1 alpha-2.'),
    region: ns('Region / state.'),
    region_code: ns('Region code.'),
    city: ns('City.'),
    postal: ns('Postal code.'),
    latitude: nn('Approximate latitude.'),
    longitude: nn('Approximate longitude.'),
    is_eu: t.Union([t.Boolean(), t.Null()], { description: 'Country is an EU member.' }),
    calling_code: ns('International calling code without +.'),
    capital: ns('Capital of the country.'),
    flag_emoji: ns('Flag emoji of the country.'),
    timezone: t.Union([
      t.Object({
        id: t.String(),
        abbr: ns('Abbreviation'),
        utc: ns('UTC offset, e.g. -07:00'),
        offset: t.Union([t.Integer(), t.Null()], { description: 'Seconds from UTC.' }),
        is_dst: t.Union([t.Boolean(), t.Null()]),
      }),
      t.Null(),
    ]),
    connection: t.Object({
      asn: t.Union([t.Integer(), t.Null()], { description: 'Autonomous system number.' }),
      org: ns('Organisation.'),
      isp: ns('Internet service provider.'),
      domain: ns('Domain of the network.'),
    }),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Google DNS',
      input: { ip: '8.8.8.8' },
      output: {
        ip: '8.8.8.8',
        type: 'IPv4',
        continent: 'North America',
        continent_code: 'NA',
        country: 'United States',
        country_code: 'US',
        region: 'California',
        region_code: 'CA',
        city: 'Mountain View',
        postal: '94039',
        latitude: 37.3860517,
        longitude: -122.0838511,
        is_eu: false,
        calling_code: '1',
        capital: 'Washington D.C.',
        flag_emoji: '🇺🇸',
        timezone: { id: 'America/Los_Angeles', abbr: 'PDT', utc: '-07:00', offset: -25200, is_dst: true },
        connection: { asn: 15169, org: 'Google LLC', isp: 'Google LLC', domain: 'google.com' },
        attribution: {
          source: 'ipwho.is IP geolocation',
          url: 'https://ipwhois.io/documentation',
          license: 'ipwhois.io terms',
          terms: 'free tier rate-limited and non-commercial; paid plan needs a key',
        },
      },
    },
  ],
})
