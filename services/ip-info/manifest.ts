import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ip-info',
  name: 'IP address info',
  description: 'Classifies an IPv4 or IPv6 address without any lookup: version, compressed and exploded forms, integer value, the IANA special-purpose range it falls in (ipaddr.js ranges: private, loopback, linkLocal, multicast, uniqueLocal, carrierGradeNat, reserved, unspecified, ipv4Mapped, ...), flags is_private / is_loopback / is_link_local / is_multicast / is_global (like Python ipaddress), and the reverse-DNS pointer name (in-addr.arpa / ip6.arpa).',
  category: 'network',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({ ip: t.String({ minLength: 2, maxLength: 64, description: 'An IPv4 or IPv6 address (no CIDR suffix, no zone id).' }) }, { additionalProperties: true }),
  output: t.Object({
    ip: t.String(), version: t.Union([t.Literal(4), t.Literal(6)]), compressed: t.String(), exploded: t.String(), integer: t.String({ description: 'Decimal, as a string (IPv6 exceeds 2^53).' }),
    range: t.String(), is_private: t.Boolean(), is_loopback: t.Boolean(), is_link_local: t.Boolean(), is_multicast: t.Boolean(), is_unspecified: t.Boolean(), is_global: t.Boolean(),
    reverse_pointer: t.String(), ipv4_mapped: t.Union([t.String(), t.Null()], { description: 'The IPv4 address inside ::ffff:a.b.c.d, else null.' }),
  }),
  examples: [{ name: 'Private IPv4', input: { ip: '192.168.1.10' } }],
})
