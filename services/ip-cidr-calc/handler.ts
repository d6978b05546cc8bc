import { handlerFor, invalid } from '../../runtime/sdk'
import { bigOf, fromBig, parseIp } from '../_lib/ip'
import manifest from './manifest'

export default handlerFor(manifest, ({ cidr, contains }) => {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(cidr.trim())
  if (!m) throw invalid('cidr', 'must look like address/prefix (e.g. 192.168.0.0/24)')
  const addr = parseIp('cidr', m[1])
  const v = addr.kind() === 'ipv4' ? 4 : 6
  const bits = v === 4 ? 32 : 128
  const prefix = Number(m[2])
  if (prefix > bits) throw invalid('cidr', `prefix must be 0-${bits} for IPv${v}`)
  const all = (1n << BigInt(bits)) - 1n
  const host = (1n << BigInt(bits - prefix)) - 1n
  const mask = all ^ host
  const net = bigOf(addr) & mask
  const last = net | host
  const total = host + 1n
  const smallV4 = v === 4 && prefix >= 31
  const first = v === 4 && !smallV4 ? net + 1n : net
  const lastHost = v === 4 && !smallV4 ? last - 1n : last
  let inside: boolean | null = null
  if (contains !== undefined) {
    const c = parseIp('contains', contains)
    inside = (c.kind() === 'ipv4' ? 4 : 6) === v && (bigOf(c) & mask) === net
  }
  const s = (n: bigint) => fromBig(n, v).toString()
  return {
    version: v, network: s(net), prefix, cidr: `${s(net)}/${prefix}`, netmask: s(mask), hostmask: s(host),
    broadcast: v === 4 ? s(last) : null, total_addresses: total.toString(),
    usable_hosts: (v === 4 && !smallV4 ? total - 2n : total).toString(), first_host: s(first), last_host: s(lastHost), contains: inside,
  }
})
