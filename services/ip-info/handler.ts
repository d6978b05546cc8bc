import type ipaddr from 'ipaddr.js'
import { handlerFor } from '../../runtime/sdk'
import { bigOf, compressed, exploded, flags, parseIp, reversePointer } from '../_lib/ip'
import manifest from './manifest'

export default handlerFor(manifest, ({ ip }) => {
  const a = parseIp('ip', ip)
  const v4 = a.kind() === 'ipv4'
  const v6 = a as ipaddr.IPv6
  const mapped = !v4 && v6.isIPv4MappedAddress() ? v6.toIPv4Address().toString() : null
  const n = bigOf(a)
  const sixToFour = !v4 && n >> 112n === 0x2002n ? v6.toByteArray().slice(2, 6).join('.') : null
  return {
    ip: ip.trim(),
    version: (v4 ? 4 : 6) as 4 | 6,
    compressed: compressed(a),
    exploded: exploded(a),
    integer: n.toString(),
    range: a.range(),
    ...flags(a),
    reverse_pointer: reversePointer(a),
    ipv4_mapped: mapped,
    sixtofour: sixToFour,
  }
})
