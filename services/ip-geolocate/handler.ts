import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { compressed, flags, parseIp } from '../_lib/ip'
import { malformed, num } from '../_lib/live-data'
import manifest from './manifest'

const TTL = 6 * 60 * 60 * 1000
const s = (v: unknown) => (typeof v === 'string' && v ? v : null)
const b = (v: unknown) => (typeof v === 'boolean' ? v : null)

interface IpWhoIs {
  ip?: string
  success?: boolean
  message?: string
  type?: string
  continent?: string
  continent_code?: string
  country?: string
  country_code?: string
  region?: string
  region_code?: string
  city?: string
  latitude?: number
  longitude?: number
  is_eu?: boolean
  postal?: string
  calling_code?: string
  capital?: string
  flag?: { emoji?: string }
  connection?: { asn?: number; org?: string; isp?: string; domain?: string }
  timezone?: { id?: string; abbr?: string; is_dst?: boolean; offset?: number; utc?: string }
}

export default handlerFor(manifest, async ({ ip }, ctx) => {
  const addr = parseIp('ip', String(ip ?? ''))
  const f = flags(addr)
  if (!f.is_global || f.is_multicast) {
    const why = f.is_loopback
      ? 'loopback'
      : f.is_link_local
        ? 'link-local'
        : f.is_unspecified
          ? 'unspecified'
          : f.is_multicast
            ? 'multicast'
            : f.is_private
              ? 'private or reserved'
              : 'shared (CGNAT)'
    throw invalid('ip', `${compressed(addr)} is a ${why} address; only public addresses have a location`)
  }
  const text = compressed(addr)
  const { data } = await ctx.upstream('ipwhois').getJson<IpWhoIs>(`/${encodeURIComponent(text)}`, {}, { ttlMs: TTL })
  if (!data || typeof data !== 'object') throw malformed('ipwhois', 'a JSON object')
  if (data.success === false) {
    const msg = String(data.message ?? 'lookup failed')
    if (/invalid ip|reserved range|private|bogon/i.test(msg)) throw invalid('ip', `ipwho.is refused ${text}: ${msg}`)
    throw new ServiceError(502, 'UPSTREAM_ERROR', `ipwho.is: ${msg}`, {
      retryable: /limit|too many|rate/i.test(msg),
      extra: { upstream: 'ipwhois' },
    })
  }
  if (data.success !== true) throw malformed('ipwhois', 'success: true')
  const tz = data.timezone
  const asn = num(data.connection?.asn)
  return {
    ip: text,
    type: addr.kind() === 'ipv4' ? ('IPv4' as const) : ('IPv6' as const),
    continent: s(data.continent),
    continent_code: s(data.continent_code),
    country: s(data.country),
    country_code: s(data.country_code),
    region: s(data.region),
    region_code: s(data.region_code),
    city: s(data.city),
    postal: s(data.postal),
    latitude: num(data.latitude),
    longitude: num(data.longitude),
    is_eu: b(data.is_eu),
    calling_code: s(data.calling_code),
    capital: s(data.capital),
    flag_emoji: s(data.flag?.emoji),
    timezone:
      tz && typeof tz.id === 'string'
        ? {
            id: tz.id,
            abbr: s(tz.abbr),
            utc: s(tz.utc),
            offset: num(tz.offset) === null ? null : Math.trunc(tz.offset!),
            is_dst: b(tz.is_dst),
          }
        : null,
    connection: {
      asn: asn === null ? null : Math.trunc(asn),
      org: s(data.connection?.org),
      isp: s(data.connection?.isp),
      domain: s(data.connection?.domain),
    },
    attribution: ctx.upstream('ipwhois').attribution,
  }
})
