import ipaddr from 'ipaddr.js'
import { invalid } from '../../runtime/sdk'

export type Ip = ipaddr.IPv4 | ipaddr.IPv6

/**
 * Strict parse: dotted-quad IPv4 (no octal/hex/short forms, no leading zeros) or IPv6 (no zone id).
 * A trailing dotted quad in IPv6 is converted to two hex groups first: ipaddr.js would read `::1.2.3.4`
 * (IPv4-compatible, ::102:304) as IPv4-mapped `::ffff:102:304`.
 */
export function parseIp(field: string, s: string): Ip {
  const v = s.trim()
  const bad = () => invalid(field, `'${s}' is not an IPv4 (dotted decimal) or IPv6 address`)
  if (ipaddr.IPv4.isValidFourPartDecimal(v) && !/(^|\.)0\d/.test(v)) return ipaddr.IPv4.parse(v)
  if (!v.includes(':') || v.includes('%') || !/^[0-9A-Fa-f:.]+$/.test(v)) throw bad()
  let hex = v
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(v)
  if (tail) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(tail[2]) || /(^|\.)0\d/.test(tail[2])) throw bad()
    const b = ipaddr.IPv4.parse(tail[2]).toByteArray()
    hex = `${tail[1]}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`
  }
  if (!ipaddr.IPv6.isValid(hex)) throw bad()
  return ipaddr.IPv6.parse(hex)
}

export const bigOf = (a: Ip): bigint => a.toByteArray().reduce((n, b) => (n << 8n) | BigInt(b), 0n)

export function fromBig(n: bigint, version: 4 | 6): Ip {
  const len = version === 4 ? 4 : 16
  const bytes = Array.from({ length: len }, (_, i) => Number((n >> BigInt(8 * (len - 1 - i))) & 0xffn))
  return ipaddr.fromByteArray(bytes)
}

export const exploded = (a: Ip) =>
  a.kind() === 'ipv4'
    ? a.toString()
    : (a as ipaddr.IPv6)
        .toNormalizedString()
        .split(':')
        .map((g) => g.padStart(4, '0'))
        .join(':')

/** RFC 5952 text form; an IPv4-mapped address keeps its dotted quad (RFC 5952 §5): ::ffff:192.0.2.1. */
export function compressed(a: Ip): string {
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress())
    return `::ffff:${(a as ipaddr.IPv6).toIPv4Address().toString()}`
  return a.toString()
}

const nets = (list: string[]) => list.map((c) => ipaddr.parseCIDR(c))
const within = (a: Ip, list: ReturnType<typeof nets>) => list.some(([n, p]) => n.kind() === a.kind() && a.match(n, p))

/**
 * Not-globally-reachable blocks of the IANA IPv4/IPv6 special-purpose registries, exactly as CPython's
 * Lib/ipaddress.py (3.13+) `_private_networks` / `_private_networks_exceptions` list them.
 */
const V4_PRIVATE = nets([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.0.170/31',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '240.0.0.0/4',
  '255.255.255.255/32',
])
const V4_EXCEPT = nets(['192.0.0.9/32', '192.0.0.10/32'])
const V6_PRIVATE = nets([
  '::1/128',
  '::/128',
  '::ffff:0:0/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  '3fff::/20',
  'fc00::/7',
  'fe80::/10',
])
const V6_EXCEPT = nets([
  '2001:1::1/128',
  '2001:1::2/128',
  '2001:3::/32',
  '2001:4:112::/48',
  '2001:20::/28',
  '2001:30::/28',
])
const V6_RESERVED = nets([
  '::/8',
  '100::/8',
  '200::/7',
  '400::/6',
  '800::/5',
  '1000::/4',
  '4000::/3',
  '6000::/3',
  '8000::/3',
  'a000::/3',
  'c000::/3',
  'e000::/4',
  'f000::/5',
  'f800::/6',
  'fe00::/9',
])
const [SHARED] = nets(['100.64.0.0/10'])

export interface IpFlags {
  is_private: boolean
  is_global: boolean
  is_loopback: boolean
  is_link_local: boolean
  is_multicast: boolean
  is_unspecified: boolean
  is_reserved: boolean
}

/** Python ipaddress (3.13+) address properties; an IPv4-mapped IPv6 address takes the flags of its IPv4 address. */
export function flags(a: Ip): IpFlags {
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) return flags((a as ipaddr.IPv6).toIPv4Address())
  if (a.kind() === 'ipv4') {
    const priv = within(a, V4_PRIVATE) && !within(a, V4_EXCEPT)
    const b = a.toByteArray()
    return {
      is_private: priv,
      is_global: !a.match(SHARED[0], SHARED[1]) && !priv,
      is_loopback: b[0] === 127,
      is_link_local: b[0] === 169 && b[1] === 254,
      is_multicast: b[0] >= 224 && b[0] <= 239,
      is_unspecified: b.every((x) => x === 0),
      is_reserved: b[0] >= 240,
    }
  }
  const priv = within(a, V6_PRIVATE) && !within(a, V6_EXCEPT)
  const n = bigOf(a)
  return {
    is_private: priv,
    is_global: !priv,
    is_loopback: n === 1n,
    is_link_local: n >> 118n === 0x3fan,
    is_multicast: n >> 120n === 0xffn,
    is_unspecified: n === 0n,
    is_reserved: within(a, V6_RESERVED),
  }
}

/** RFC 1035 §3.5 in-addr.arpa / RFC 3596 §2.5 ip6.arpa name. */
export const reversePointer = (a: Ip) =>
  a.kind() === 'ipv4'
    ? [...a.toByteArray()].reverse().join('.') + '.in-addr.arpa'
    : [...exploded(a).replace(/:/g, '')].reverse().join('.') + '.ip6.arpa'
