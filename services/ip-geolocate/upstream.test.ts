/** ip-geolocate against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed, upstreamFailure } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const ipGeolocate = typed(manifest, handler)
const { up, ctx, failureForms } = recordedUpstreams()

describe('ip-geolocate', () => {
  test('location and network', async () => {
    const out = await ipGeolocate({ ip: '8.8.8.8' }, ctx())
    conforms('ip-geolocate', out)
    expect(out).toMatchObject({
      ip: '8.8.8.8',
      type: 'IPv4',
      country_code: 'US',
      city: 'Mountain View',
      latitude: 37.3860517,
      is_eu: false,
      flag_emoji: '🇺🇸',
      connection: { asn: 15169, org: 'Google LLC', isp: 'Google LLC', domain: 'google.com' },
      timezone: { id: 'America/Los_Angeles', offset: -25200 },
    })
  })
  test('private, loopback, reserved and malformed addresses: 422 without a lookup', async () => {
    const before = up.hits('/ipwho/')
    for (const ip of [
      '10.0.0.1',
      '127.0.0.1',
      '::1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      'fe80::1',
      '0177.0.0.1',
      'nope',
    ])
      await serviceError(ipGeolocate({ ip }, ctx()), 422, 'INVALID_INPUT')
    expect(up.hits('/ipwho/')).toBe(before)
  })
  test('ipwho.is {success:false}: invalid → 422; rate limit → 502 retryable', async () => {
    await serviceError(ipGeolocate({ ip: '2001:4860:4860::8888' }, ctx()), 422, 'INVALID_INPUT')
    await upstreamFailure(ipGeolocate({ ip: '1.2.3.4' }, ctx()), 502, 'ipwhois', true)
  })
  test('upstream failure forms', () => failureForms('ipwho', 'ipwhois', () => ipGeolocate({ ip: '9.9.9.9' }, ctx())))
})
