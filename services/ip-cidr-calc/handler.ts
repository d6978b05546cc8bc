import ipaddr from 'ipaddr.js'
import { handlerFor, invalid } from '../../runtime/sdk'
import { bigOf, compressed, fromBig, parseIp } from '../_lib/ip'
import manifest from './manifest'

/** Prefix length from "24", or (IPv4) a dotted netmask such as 255.255.240.0 or hostmask 0.0.15.255, like Python ipaddress. */
function prefixOf(s: string | undefined, v: 4 | 6): number {
  const bits = v === 4 ? 32 : 128
  if (s === undefined) return bits
  if (/^\d{1,3}$/.test(s)) {
    const p = Number(s)
    if (p > bits) throw invalid('cidr', `prefix must be 0-${bits} for IPv${v}`)
    return p
  }
  if (v === 4 && ipaddr.IPv4.isValidFourPartDecimal(s)) {
    const n = bigOf(ipaddr.IPv4.parse(s))
    for (const m of [n, n ^ 0xffffffffn]) {
      const p = m.toString(2).padStart(32, '0')
      if (/^1*0*$/.test(p)) return p.indexOf('0') < 0 ? 32 : p.indexOf('0')
    }
    throw invalid('cidr', `'${s}' is not a valid netmask (its one bits must be contiguous)`)
  }
  throw invalid('cidr', `'${s}' is not a prefix length${v === 4 ? ' or dotted netmask' : ''}`)
}

export default handlerFor(manifest, ({ cidr, contains }) => {
  const m = /^([^/]+)(?:\/([^/]+))?$/.exec(cidr.trim())
  if (!m) throw invalid('cidr', 'must look like address/prefix (e.g. 192.168.0.0/24 or 2001:db8::/48)')
  const addr = parseIp('cidr', m[1])
  const v: 4 | 6 = addr.kind() === 'ipv4' ? 4 : 6
  const bits = v === 4 ? 32 : 128
  const prefix = prefixOf(m[2], v)
  const host = (1n << BigInt(bits - prefix)) - 1n
  const mask = ((1n << BigInt(bits)) - 1n) ^ host
  const net = bigOf(addr) & mask
  const last = net | host
  const total = host + 1n
  // Python ipaddress hosts(): IPv4 drops network and broadcast; IPv6 drops the Subnet-Router anycast (network) address; /31, /32, /127, /128 keep all.
  const all = prefix >= bits - 1
  const first = all ? net : net + 1n
  const lastHost = all || v === 6 ? last : last - 1n
  let inside: boolean | null = null
  if (contains !== undefined) {
    const c = parseIp('contains', contains)
    inside = (c.kind() === 'ipv4' ? 4 : 6) === v && (bigOf(c) & mask) === net
  }
  const s = (n: bigint) => compressed(fromBig(n, v))
  return {
    version: v,
    network: s(net),
    prefix,
    cidr: `${s(net)}/${prefix}`,
    netmask: s(mask),
    hostmask: s(host),
    broadcast: v === 4 ? s(last) : null,
    last_address: s(last),
    total_addresses: total.toString(),
    usable_hosts: (lastHost - first + 1n).toString(),
    first_host: s(first),
    last_host: s(lastHost),
    host_bits_set: (bigOf(addr) & host) !== 0n,
    contains: inside,
  }
})
