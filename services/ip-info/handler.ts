import ipaddr from 'ipaddr.js'
import { handlerFor } from '../../runtime/sdk'
import { bigOf, exploded, parseIp } from '../_lib/ip'
import manifest from './manifest'

const PRIVATE = new Set(['private', 'uniqueLocal', 'loopback', 'linkLocal', 'reserved', 'unspecified', 'benchmarking', 'ipv4Mapped', 'broadcast'])
const NOT_GLOBAL = new Set(['unspecified', 'broadcast', 'linkLocal', 'loopback', 'private', 'reserved', 'uniqueLocal', 'carrierGradeNat', 'ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo', 'benchmarking', 'amt', 'as112', 'as112v6', 'deprecated', 'orchid2', 'droneRemoteIdProtocolEntityTags'])

export default handlerFor(manifest, ({ ip }) => {
  const a = parseIp('ip', ip)
  const range = a.range()
  const v4 = a.kind() === 'ipv4'
  const mapped = !v4 && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address().toString() : null
  const reverse = v4
    ? a.toByteArray().reverse().join('.') + '.in-addr.arpa'
    : [...exploded(a).replace(/:/g, '')].reverse().join('.') + '.ip6.arpa'
  return {
    ip: ip.trim(), version: (v4 ? 4 : 6) as 4 | 6, compressed: a.toString(), exploded: exploded(a), integer: bigOf(a).toString(),
    range, is_private: PRIVATE.has(range),
    is_loopback: range === 'loopback', is_link_local: range === 'linkLocal', is_multicast: range === 'multicast', is_unspecified: range === 'unspecified',
    is_global: !NOT_GLOBAL.has(range), reverse_pointer: reverse, ipv4_mapped: mapped,
  }
})
