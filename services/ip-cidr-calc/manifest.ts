import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ip-cidr-calc',
  name: 'CIDR subnet calculator',
  description:
    'Subnet maths for an IPv4 or IPv6 block, matching Python ipaddress.ip_network(cidr, strict=False): host bits set in the address are masked off; the prefix may be a length (/20), or for IPv4 a dotted netmask (/255.255.240.0) or hostmask (/0.0.15.255); a bare address is a /32 or /128. ' +
    'Returns network, prefix, netmask, hostmask, broadcast (IPv4; null for IPv6), last address, total addresses and usable hosts (decimal strings: IPv6 counts exceed 2^53), and the first and last usable host as Python hosts() gives them: ' +
    'IPv4 excludes the network and broadcast addresses, IPv6 excludes the Subnet-Router anycast (network) address (RFC 4291 §2.6.1), and /31, /32 (RFC 3021), /127 (RFC 6164) and /128 keep every address. ' +
    'With `contains`, also whether that address lies inside (an address of the other IP version is simply outside).',
  category: 'network',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      cidr: t.String({
        minLength: 2,
        maxLength: 100,
        description: 'address/prefix, e.g. 10.1.2.3/20, 192.168.0.0/255.255.255.0 or 2001:db8::/48.',
      }),
      contains: t.Optional(
        t.String({ minLength: 2, maxLength: 64, description: 'An IPv4 or IPv6 address to test for membership.' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { network: 'cidr', subnet: 'cidr', range: 'cidr', ip: 'contains', address: 'contains' } },
  output: t.Object({
    version: t.Union([t.Literal(4), t.Literal(6)], { description: 'IP version.' }),
    network: t.String({ description: 'Network address (host bits cleared).' }),
    prefix: t.Integer({ minimum: 0, maximum: 128, description: 'Prefix length.' }),
    cidr: t.String({ description: 'Normalised network/prefix.' }),
    netmask: t.String({ description: 'Netmask, e.g. 255.255.240.0 or ffff:ffff:ffff::.' }),
    hostmask: t.String({ description: 'Hostmask (inverse of the netmask), e.g. 0.0.15.255.' }),
    broadcast: t.Union([t.String(), t.Null()], {
      description: 'IPv4 broadcast address (last address); null for IPv6, which has no broadcast.',
    }),
    last_address: t.String({ description: 'Last address of the block.' }),
    total_addresses: t.String({ description: 'Addresses in the block, 2^(bits - prefix), as a decimal string.' }),
    usable_hosts: t.String({ description: 'Usable host addresses (see the description), as a decimal string.' }),
    first_host: t.String({ description: 'First usable host address.' }),
    last_host: t.String({ description: 'Last usable host address.' }),
    host_bits_set: t.Boolean({ description: 'The address given had host bits set (it was not the network address).' }),
    contains: t.Union([t.Boolean(), t.Null()], {
      description: 'The `contains` address is inside the block; null when no address was given.',
    }),
  }),
  examples: [
    {
      name: 'A /20 with a membership test',
      input: { cidr: '10.1.2.3/20', contains: '10.1.15.254' },
      output: {
        version: 4,
        network: '10.1.0.0',
        prefix: 20,
        cidr: '10.1.0.0/20',
        netmask: '255.255.240.0',
        hostmask: '0.0.15.255',
        broadcast: '10.1.15.255',
        last_address: '10.1.15.255',
        total_addresses: '4096',
        usable_hosts: '4094',
        first_host: '10.1.0.1',
        last_host: '10.1.15.254',
        host_bits_set: true,
        contains: true,
      },
    },
  ],
})
