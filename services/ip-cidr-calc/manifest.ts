import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ip-cidr-calc',
  name: 'CIDR calculator',
  description: 'Subnet maths for an IPv4 or IPv6 CIDR block (host bits set in the address are masked off, like Python ipaddress.ip_network(strict=False)): network and broadcast (IPv4) addresses, netmask and hostmask, prefix length, total addresses (decimal string: IPv6 counts exceed 2^53), first and last usable host (for IPv4 /31 and /32 and IPv6 all addresses are usable, per RFC 3021), and whether an optional address is inside.',
  category: 'network',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      cidr: t.String({ minLength: 3, maxLength: 64, description: 'Address/prefix, e.g. 10.1.2.3/20 or 2001:db8::/48.' }),
      contains: t.Optional(t.String({ maxLength: 64, description: 'An address to test for membership.' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    version: t.Integer(), network: t.String(), prefix: t.Integer(), cidr: t.String({ description: 'Normalised network/prefix.' }),
    netmask: t.String(), hostmask: t.String(), broadcast: t.Union([t.String(), t.Null()]),
    total_addresses: t.String(), usable_hosts: t.String(), first_host: t.String(), last_host: t.String(),
    contains: t.Union([t.Boolean(), t.Null()], { description: 'null when no address was given.' }),
  }),
  examples: [{ name: 'A /20', input: { cidr: '10.1.2.3/20', contains: '10.1.15.254' } }],
})
