/**
 * SSRF suite for the one safe fetcher (runtime/net/safe-fetch.ts). Every refused URL must be refused before any
 * connection: the transport used for those cases fails the test when called.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addressRefusal, createSafeFetch } from '../../runtime/net/safe-fetch'
import {
  hanging,
  html,
  loopbackFetch,
  neverAnswers,
  serve,
  serviceError,
  upstreamFailure,
  type Fixture,
} from './support'

const noConnect = (url: string): Promise<Response> => {
  throw new Error(`must not connect, tried ${url}`)
}
const PUBLIC_V4 = '93.184.215.14'
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c'

const fixtures: Fixture[] = []
const track = (f: Fixture) => (fixtures.push(f), f)
afterAll(() => fixtures.forEach((f) => f.stop()))

const site = track(
  serve((req, url) => {
    const p = url.pathname
    if (p === '/page')
      return html(
        `<html><head><title>ok</title></head><body>host=${req.headers.get('host')} ua=${req.headers.get('user-agent')}</body></html>`,
      )
    if (p === '/to-metadata') return Response.redirect('http://169.254.169.254/latest/meta-data/', 302)
    if (p === '/to-private-name') return Response.redirect('http://internal.corp.test/admin', 301)
    if (p === '/to-file') return new Response(null, { status: 302, headers: { location: 'file:///etc/passwd' } })
    if (p === '/relative') return new Response(null, { status: 303, headers: { location: '/page' } })
    const hop = /^\/hop\/(\d+)$/.exec(p)
    if (hop)
      return Number(hop[1]) === 0
        ? html('<p>end of chain</p>')
        : new Response(null, { status: 307, headers: { location: `/hop/${Number(hop[1]) - 1}` } })
    if (p === '/big') return new Response('x'.repeat(5000), { headers: { 'content-type': 'text/plain' } })
    if (p === '/big-stream')
      return new Response(
        new ReadableStream({
          pull(c) {
            c.enqueue(new Uint8Array(1024).fill(65))
          },
        }),
        { headers: { 'content-type': 'text/plain' } },
      )
    if (p === '/slow-body') return hanging()
    if (p === '/slow-headers') return neverAnswers(req)
    if (p === '/binary')
      return new Response(new Uint8Array([0, 1, 2]), { headers: { 'content-type': 'application/octet-stream' } })
    if (p === '/latin1')
      return new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), {
        headers: { 'content-type': 'text/plain; charset=iso-8859-1' },
      })
    if (p === '/missing') return html('<h1>Not here</h1>', 404)
    return html('root')
  }),
)

describe('allowlisted loopback fixture', () => {
  test('fetches, reports status, type, final URL, headers sent and decoded text', async () => {
    const page = await loopbackFetch([site])(`${site.url}/page`, { accept: ['text/html'] })
    expect(page.status).toBe(200)
    expect(page.contentType).toBe('text/html')
    expect(page.url).toBe(`${site.url}/page`)
    expect(page.text()).toContain(`host=${site.host}`)
    expect(page.text()).toContain('ua=Mozilla/5.0 (compatible; x402-agent-api')
  })
  test('follows a relative 303 and re-reports the final URL', async () => {
    const page = await loopbackFetch([site])(`${site.url}/relative`)
    expect(page.url).toBe(`${site.url}/page`)
  })
  test('non-2xx answers come back as pages (the services decide)', async () => {
    const page = await loopbackFetch([site])(`${site.url}/missing`, { accept: ['application/json'] })
    expect(page.status).toBe(404)
  })
  test('charset from Content-Type', async () => {
    expect((await loopbackFetch([site])(`${site.url}/latin1`)).text()).toBe('café')
  })
  test('HEAD returns no body', async () => {
    const page = await loopbackFetch([site])(`${site.url}/page`, { method: 'HEAD' })
    expect(page.body.byteLength).toBe(0)
  })
})

describe('refused before any connection (422 URL_NOT_ALLOWED)', () => {
  const strict = createSafeFetch({ fetchImpl: noConnect, lookup: async () => [PUBLIC_V4] })
  const refusedUrls: Array<[string, RegExp]> = [
    ['http://127.0.0.1/', /loopback/],
    ['http://10.0.0.1/', /private/],
    ['http://172.16.5.4/', /private/],
    ['http://192.168.1.1/', /private/],
    ['http://100.64.0.1/', /carrierGradeNat/],
    ['http://169.254.169.254/latest/meta-data/', /metadata/],
    ['http://169.254.1.1/', /linkLocal/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://0/', /unspecified/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://224.0.0.1/', /multicast/],
    ['http://198.18.0.1/', /reserved/],
    ['http://192.0.2.1/', /reserved/],
    ['http://240.0.0.1/', /reserved/],
    ['http://[::1]/', /loopback/],
    ['http://[::]/', /unspecified/],
    ['http://[fe80::1]/', /linkLocal/],
    ['http://[fc00::1]/', /uniqueLocal/],
    ['http://[fd12:3456::1]/', /uniqueLocal/],
    ['http://[ff02::1]/', /multicast/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped/],
    ['http://[::ffff:169.254.169.254]/', /IPv4-mapped/],
    ['http://[::ffff:10.0.0.1]/', /IPv4-mapped/],
    ['http://[64:ff9b::7f00:1]/', /rfc6052/],
    ['http://[2002:7f00:1::]/', /6to4/],
    ['http://[::127.0.0.1]/', /2000::\/3/],
    ['http://[2001:db8::1]/', /reserved/],
    // Numeric host tricks: the WHATWG parser turns them into 127.0.0.1, which is then refused.
    ['http://2130706433/', /127\.0\.0\.1 is in a non-public IPv4 range \(loopback\)/],
    ['http://0x7f.1/', /127\.0\.0\.1.*loopback/],
    ['http://0x7f000001/', /127\.0\.0\.1.*loopback/],
    ['http://0177.0.0.1/', /127\.0\.0\.1.*loopback/],
    ['http://017700000001/', /127\.0\.0\.1.*loopback/],
    ['http://127.1/', /127\.0\.0\.1.*loopback/],
    ['http://0251.0376.0251.0376/', /169\.254\.169\.254.*metadata/],
    ['http://localhost:8080/', /loopback name/],
    ['http://api.localhost/', /loopback name/],
    // Schemes
    ['file:///etc/passwd', /scheme file:/],
    ['gopher://example.com:70/_x', /scheme gopher:/],
    ['data:text/plain,hello', /scheme data:/],
    ['ftp://example.com/', /scheme ftp:/],
    ['javascript:alert(1)', /scheme javascript:/],
    ['ws://example.com/', /scheme ws:/],
    // Other rules
    ['http://user:pass@example.com/', /credentials/],
    ['http://example.com:22/', /port 22/],
    ['http://example.com:25/', /port 25/],
    ['not a url', /not an absolute URL/],
  ]
  test.each(refusedUrls)('%s', async (url, why) => {
    const e = await serviceError(strict(url), 422, 'URL_NOT_ALLOWED')
    expect(e.message).toMatch(why)
    expect((e.details as { reason: string }).reason).toMatch(why)
  })

  test('a name resolving to a private address is refused', async () => {
    const f = createSafeFetch({ fetchImpl: noConnect, lookup: async () => ['10.1.2.3'] })
    const e = await serviceError(f('http://intranet.example.com/'), 422, 'URL_NOT_ALLOWED')
    expect(e.message).toContain('intranet.example.com resolves to 10.1.2.3')
  })
  test('every address is checked: one private answer among public ones refuses the name', async () => {
    const f = createSafeFetch({ fetchImpl: noConnect, lookup: async () => [PUBLIC_V4, PUBLIC_V6, '127.0.0.1'] })
    await serviceError(f('http://mixed.example.com/'), 422, 'URL_NOT_ALLOWED')
  })
  test('a name resolving to IPv4-mapped IPv6 loopback is refused', async () => {
    const f = createSafeFetch({ fetchImpl: noConnect, lookup: async () => ['::ffff:7f00:1'] })
    await serviceError(f('https://sneaky.example.com/'), 422, 'URL_NOT_ALLOWED')
  })
  test('loopback fixture is refused when not allowlisted', async () => {
    await serviceError(createSafeFetch({})(`${site.url}/page`), 422, 'URL_NOT_ALLOWED')
  })
  test('allowlisting one port does not open another', async () => {
    await serviceError(
      createSafeFetch({ allowHosts: [site.host] })(`http://127.0.0.1:${site.port + 1}/`),
      422,
      'URL_NOT_ALLOWED',
    )
  })
})

describe('addressRefusal', () => {
  test('public unicast addresses pass', () => {
    for (const a of [PUBLIC_V4, '8.8.8.8', '1.1.1.1', PUBLIC_V6, '2a00:1450:4001:82a::200e'])
      expect(addressRefusal(a)).toBeUndefined()
  })
})

describe('redirects are re-checked', () => {
  test('allowed host redirecting to the metadata address is refused', async () => {
    const e = await serviceError(loopbackFetch([site])(`${site.url}/to-metadata`), 422, 'URL_NOT_ALLOWED')
    expect(e.message).toContain('169.254.169.254')
  })
  test('allowed host redirecting to a name that resolves privately is refused', async () => {
    const f = loopbackFetch([site], { lookup: async () => ['192.168.0.10'] })
    await serviceError(f(`${site.url}/to-private-name`), 422, 'URL_NOT_ALLOWED')
  })
  test('allowed host redirecting to file: is refused', async () => {
    await serviceError(loopbackFetch([site])(`${site.url}/to-file`), 422, 'URL_NOT_ALLOWED')
  })
  test('5 redirects are followed', async () => {
    const page = await loopbackFetch([site])(`${site.url}/hop/5`)
    expect(page.url).toBe(`${site.url}/hop/0`)
    expect(page.text()).toContain('end of chain')
  })
  test('more than 5 redirects is a 502', async () => {
    const e = await upstreamFailure(loopbackFetch([site])(`${site.url}/hop/6`), 502, 'target', false)
    expect(e.message).toContain('more than 5 redirects')
  })
})

describe('DNS rebinding: the connection is pinned to the checked address', () => {
  test('a resolver answering public first, then 127.0.0.1, never gets its second answer used', async () => {
    const answers = [[PUBLIC_V4], ['127.0.0.1']]
    let lookups = 0
    const connected: Array<{ url: string; host: string | null }> = []
    const f = createSafeFetch({
      lookup: async () => answers[Math.min(lookups++, 1)],
      // The transport records where the fetcher connects, then plays the public server with the fixture.
      fetchImpl: async (url, init) => {
        connected.push({ url, host: new Headers(init.headers).get('host') })
        return html('<title>public</title>')
      },
    })
    const page = await f('http://rebind.example.com:8080/x?y=1')
    expect(lookups).toBe(1)
    expect(connected).toEqual([{ url: `http://${PUBLIC_V4}:8080/x?y=1`, host: 'rebind.example.com:8080' }])
    expect(page.url).toBe('http://rebind.example.com:8080/x?y=1')
  })
  test('each redirect hop resolves once and connects to what it checked', async () => {
    let lookups = 0
    const connected: string[] = []
    const f = createSafeFetch({
      lookup: async (h) => (lookups++, h === 'a.example.com' ? [PUBLIC_V4] : [PUBLIC_V6]),
      fetchImpl: async (url) => {
        connected.push(url)
        return connected.length === 1
          ? new Response(null, { status: 302, headers: { location: 'https://b.example.com/next' } })
          : html('done')
      },
    })
    await f('http://a.example.com/')
    expect(lookups).toBe(2)
    expect(connected).toEqual([`http://${PUBLIC_V4}/`, `https://[${PUBLIC_V6}]/next`])
  })
  test('https keeps SNI and certificate name: tls.serverName is the original host', async () => {
    let seen: unknown
    const f = createSafeFetch({
      lookup: async () => [PUBLIC_V4],
      fetchImpl: async (_url, init) => {
        seen = init.tls
        return html('ok')
      },
    })
    await f('https://secure.example.com/')
    expect(seen).toEqual({ serverName: 'secure.example.com' })
  })
  test('real Bun fetch: connects to the pinned IP and sends the original Host header', async () => {
    const f = createSafeFetch({ allowHosts: [`pinned.test:${site.port}`], lookup: async () => ['127.0.0.1'] })
    const page = await f(`http://pinned.test:${site.port}/page`)
    expect(page.text()).toContain(`host=pinned.test:${site.port}`)
    expect(page.url).toBe(`http://pinned.test:${site.port}/page`)
  })
})

describe('real TLS with a pinned address (Bun verifies the certificate against serverName)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'safe-fetch-tls-'))
  const made = Bun.spawnSync(
    [
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=pinned.test',
      '-addext',
      'subjectAltName=DNS:pinned.test',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stderr: 'pipe', stdout: 'pipe' },
  )
  const haveOpenssl = made.exitCode === 0
  test.skipIf(!haveOpenssl)(
    'the certificate for the original host name is accepted over the IP connection; another name is refused',
    async () => {
      const cert = readFileSync(join(dir, 'cert.pem'), 'utf8')
      const key = readFileSync(join(dir, 'key.pem'), 'utf8')
      const server = Bun.serve({
        port: 0,
        hostname: '127.0.0.1',
        tls: { cert, key },
        fetch: (req) =>
          new Response(`tls host=${req.headers.get('host')}`, { headers: { 'content-type': 'text/plain' } }),
      })
      try {
        const ok = createSafeFetch({
          allowHosts: [`pinned.test:${server.port}`],
          lookup: async () => ['127.0.0.1'],
          ca: cert,
        })
        expect((await ok(`https://pinned.test:${server.port}/`)).text()).toBe(`tls host=pinned.test:${server.port}`)
        const wrong = createSafeFetch({
          allowHosts: [`other.test:${server.port}`],
          lookup: async () => ['127.0.0.1'],
          ca: cert,
        })
        const e = await upstreamFailure(wrong(`https://other.test:${server.port}/`), 502, 'target')
        expect(e.message).toMatch(/ALTNAME|hostname|altname/i)
      } finally {
        server.stop(true)
      }
    },
  )
})

describe('size, time and type caps', () => {
  test('declared body over the cap: 422 RESPONSE_TOO_LARGE', async () => {
    const e = await serviceError(
      loopbackFetch([site])(`${site.url}/big`, { maxBytes: 1000 }),
      422,
      'RESPONSE_TOO_LARGE',
    )
    expect(e.message).toContain('1000 bytes')
  })
  test('endless streamed body is cut at the cap', async () => {
    await serviceError(
      loopbackFetch([site])(`${site.url}/big-stream`, { maxBytes: 64 * 1024 }),
      422,
      'RESPONSE_TOO_LARGE',
    )
  })
  test('a body that never ends: 504 from target', async () => {
    await upstreamFailure(loopbackFetch([site])(`${site.url}/slow-body`, { timeoutMs: 300 }), 504, 'target', true)
  })
  test('headers that never come: 504 from target', async () => {
    await upstreamFailure(loopbackFetch([site])(`${site.url}/slow-headers`, { timeoutMs: 300 }), 504, 'target', true)
  })
  test('a slow resolver counts against the deadline', async () => {
    const f = createSafeFetch({ fetchImpl: noConnect, lookup: () => new Promise(() => {}), timeoutMs: 200 })
    await upstreamFailure(f('http://slow-dns.example.com/'), 504, 'target')
  })
  test('content type not accepted: 415', async () => {
    const e = await serviceError(
      loopbackFetch([site])(`${site.url}/binary`, { accept: ['text/html', 'application/xhtml+xml'] }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    expect(e.message).toContain('application/octet-stream')
  })
})

describe('unreachable targets', () => {
  test('connection refused: 502 from target', async () => {
    const gone = serve(() => new Response('x'))
    const host = gone.host
    gone.stop()
    await upstreamFailure(
      createSafeFetch({ allowHosts: [host], timeoutMs: 2000 })(`http://${host}/`),
      502,
      'target',
      true,
    )
  })
  test('name that does not resolve: 502, not retryable', async () => {
    const f = createSafeFetch({
      fetchImpl: noConnect,
      lookup: async () =>
        Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' })),
    })
    await upstreamFailure(f('http://nope.invalid/'), 502, 'target', false)
  })
})
