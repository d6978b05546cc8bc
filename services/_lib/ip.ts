import ipaddr from 'ipaddr.js'
import { invalid } from '../../runtime/sdk'

/** Strict parse: dotted-quad IPv4 (no octal/hex/short forms) or IPv6. */
export function parseIp(field: string, s: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const v = s.trim()
  if (ipaddr.IPv4.isValidFourPartDecimal(v)) return ipaddr.IPv4.parse(v)
  if (v.includes(':') && ipaddr.IPv6.isValid(v) && !v.includes('%')) return ipaddr.IPv6.parse(v)
  throw invalid(field, `'${s}' is not an IPv4 (dotted decimal) or IPv6 address`)
}

export const bigOf = (a: ipaddr.IPv4 | ipaddr.IPv6): bigint => a.toByteArray().reduce((n, b) => (n << 8n) | BigInt(b), 0n)

export function fromBig(n: bigint, version: 4 | 6): ipaddr.IPv4 | ipaddr.IPv6 {
  const len = version === 4 ? 4 : 16
  const bytes = Array.from({ length: len }, (_, i) => Number((n >> BigInt(8 * (len - 1 - i))) & 0xffn))
  return ipaddr.fromByteArray(bytes)
}

export const exploded = (a: ipaddr.IPv4 | ipaddr.IPv6) =>
  a.kind() === 'ipv4' ? a.toString() : (a as ipaddr.IPv6).toNormalizedString().split(':').map((g) => g.padStart(4, '0')).join(':')
