import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ip-info',
  name: 'IP address info',
  description:
    'Classifies an IPv4 or IPv6 address offline (no lookup, no geolocation): version, compressed (RFC 5952; IPv4-mapped shown as ::ffff:a.b.c.d) and exploded forms, integer value, ' +
    'the special-purpose range name from ipaddr.js (private, loopback, linkLocal, multicast, uniqueLocal, carrierGradeNat, reserved, unspecified, ipv4Mapped, 6to4, teredo, unicast, ...), ' +
    'and the flags of Python ipaddress 3.13+: is_private / is_global follow the "globally reachable" column of the IANA IPv4 and IPv6 special-purpose registries (100.64.0.0/10 is neither), is_loopback, is_link_local, is_multicast, is_unspecified, is_reserved; an IPv4-mapped address takes the flags of its IPv4 address. ' +
    'Also the reverse-DNS pointer name (in-addr.arpa / ip6.arpa), the IPv4 inside ::ffff:a.b.c.d and the IPv4 embedded in a 6to4 (2002::/16) address. Strict input: dotted-decimal IPv4 without leading zeros, IPv6 without a zone id or prefix.',
  category: 'network',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      ip: t.String({
        minLength: 2,
        maxLength: 64,
        description: 'An IPv4 (e.g. 192.168.1.10) or IPv6 (e.g. 2001:db8::1) address; no CIDR suffix, no zone id.',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { address: 'ip', ip_address: 'ip' } },
  output: t.Object({
    ip: t.String({ description: 'The address as sent (trimmed).' }),
    version: t.Union([t.Literal(4), t.Literal(6)], { description: 'IP version.' }),
    compressed: t.String({
      description: 'Canonical short form (RFC 5952 for IPv6, lower-case, longest zero run as ::).',
    }),
    exploded: t.String({ description: 'Full form (IPv6: eight 4-digit groups).' }),
    integer: t.String({ description: 'The address as an unsigned integer, decimal string (IPv6 exceeds 2^53).' }),
    range: t.String({ description: 'ipaddr.js special-purpose range name; "unicast" for ordinary addresses.' }),
    is_private: t.Boolean({
      description: 'Not globally reachable per the IANA special-purpose registries (Python ipaddress is_private).',
    }),
    is_global: t.Boolean({ description: 'Globally reachable (Python is_global); false for 100.64.0.0/10 too.' }),
    is_loopback: t.Boolean({ description: '127.0.0.0/8 or ::1.' }),
    is_link_local: t.Boolean({ description: '169.254.0.0/16 or fe80::/10.' }),
    is_multicast: t.Boolean({ description: '224.0.0.0/4 or ff00::/8.' }),
    is_unspecified: t.Boolean({ description: '0.0.0.0 or ::.' }),
    is_reserved: t.Boolean({
      description:
        'IETF-reserved: 240.0.0.0/4, or an IPv6 block not allocated for unicast/multicast (Python is_reserved).',
    }),
    reverse_pointer: t.String({ description: 'Reverse-DNS name: d.c.b.a.in-addr.arpa or 32 nibbles + .ip6.arpa.' }),
    ipv4_mapped: t.Union([t.String(), t.Null()], { description: 'The IPv4 address inside ::ffff:a.b.c.d, else null.' }),
    sixtofour: t.Union([t.String(), t.Null()], {
      description: 'The IPv4 address embedded in a 6to4 address (2002:AABB:CCDD::/48), else null.',
    }),
  }),
  examples: [
    {
      name: 'Private IPv4',
      input: { ip: '192.168.1.10' },
      output: {
        ip: '192.168.1.10',
        version: 4,
        compressed: '192.168.1.10',
        exploded: '192.168.1.10',
        integer: '3232235786',
        range: 'private',
        is_private: true,
        is_global: false,
        is_loopback: false,
        is_link_local: false,
        is_multicast: false,
        is_unspecified: false,
        is_reserved: false,
        reverse_pointer: '10.1.168.192.in-addr.arpa',
        ipv4_mapped: null,
        sixtofour: null,
      },
    },
  ],
})
