/** dns-lookup against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler, { txtValue } from './handler'
import manifest from './manifest'
import { ctxWith, serviceError, typed, upstreamFailure } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const dnsLookup = typed(manifest, handler)
const { up, ctx, failureForms, upstreams } = recordedUpstreams()

describe('dns-lookup', () => {
  test('MX parsing: priority and exchange', async () => {
    const out = await dnsLookup({ name: 'Example.COM.', type: 'MX' }, ctx())
    conforms('dns-lookup', out)
    expect(out.records).toEqual([
      {
        name: 'example.com',
        type: 'MX',
        ttl: 3600,
        data: '10 mx1.example.com.',
        value: 'mx1.example.com',
        priority: 10,
      },
      {
        name: 'example.com',
        type: 'MX',
        ttl: 3600,
        data: '20 mx2.example.com.',
        value: 'mx2.example.com',
        priority: 20,
      },
    ])
    expect(out).toMatchObject({
      name: 'example.com',
      type: 'MX',
      status: 'NOERROR',
      ttl: 3600,
      resolver: `127.0.0.1:${up.port}`,
    })
  })
  test('TXT strings unquoted and joined; smallest TTL', async () => {
    const out = await dnsLookup({ name: 'example.com', type: 'txt' as 'TXT' }, ctx())
    expect(out.records.map((r) => r.value)).toEqual(['v=spf1 -all', 'part one part two "quoted"'])
    expect(out.ttl).toBe(120)
    expect(txtValue('"a\\059b"')).toBe('a;b')
  })
  test('CNAME chain and AD flag', async () => {
    const out = await dnsLookup({ name: 'www.example.com' }, ctx())
    expect(out.records.map((r) => [r.type, r.value])).toEqual([
      ['CNAME', 'example.com'],
      ['A', '93.184.215.14'],
    ])
    expect(out.authenticated_data).toBe(true)
  })
  test('internationalised names go out as punycode', async () => {
    const out = await dnsLookup({ name: 'bücher.example' }, ctx())
    expect(out.name).toBe('xn--bcher-kva.example')
  })
  test('NXDOMAIN and NODATA: 404; SERVFAIL: 502 retryable; bad names: 422', async () => {
    await serviceError(dnsLookup({ name: 'nxdomain.example' }, ctx()), 404, 'NOT_FOUND')
    await serviceError(dnsLookup({ name: 'nodata.example', type: 'AAAA' }, ctx()), 404, 'NOT_FOUND')
    const e = await upstreamFailure(dnsLookup({ name: 'servfail.example' }, ctx()), 502, 'doh', true)
    expect(e.message).toContain('SERVFAIL')
    await serviceError(dnsLookup({ name: 'bad name!' }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(dnsLookup({ name: `${'a'.repeat(64)}.com` }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(dnsLookup({ name: 'example.com', type: 'ANY' as 'A' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('cached for the answer TTL: 10 sequential and 10 concurrent calls → 1 upstream hit; expired → fetched again', async () => {
    const u = upstreams()
    const before = up.hits('/doh/')
    const at = (iso: string) => ctxWith({ upstream: u, now: iso })
    await Promise.all(
      Array.from({ length: 10 }, () => dnsLookup({ name: 'example.com', type: 'MX' }, at('2030-01-01T00:00:00Z'))),
    )
    for (let i = 0; i < 10; i++) await dnsLookup({ name: 'example.com', type: 'MX' }, at('2030-01-01T00:59:59Z'))
    expect(up.hits('/doh/') - before).toBe(1)
    await dnsLookup({ name: 'example.com', type: 'MX' }, at('2030-01-01T01:00:01Z'))
    expect(up.hits('/doh/') - before).toBe(2)
  })
  test('upstream failure forms', () =>
    failureForms('doh', 'doh', () => dnsLookup({ name: 'fail.example', type: 'NS' }, ctx())))
})
