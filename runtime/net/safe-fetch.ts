/**
 * The one SSRF-safe fetcher for user-supplied URLs (`ctx.fetch`).
 *
 * Per hop (the first URL and every redirect, at most `maxRedirects`, default 5):
 *  1. Only `http:` and `https:`; no credentials in the URL; port 80, 443 or 1024-65535.
 *  2. The host is parsed by the WHATWG URL parser, so numeric tricks (`http://2130706433/`, `http://0x7f.1/`,
 *     `http://0177.0.0.1/`, `http://127.1/`) arrive here already normalised to dotted quads and are checked as such.
 *  3. A host name is resolved first (`lookup`, default `dns.promises.lookup(all)`); EVERY address must be public
 *     unicast (ipaddr.js `range() === 'unicast'`, IPv6 additionally inside 2000::/3). That refuses private (RFC 1918),
 *     loopback, link-local (incl. 169.254.169.254 metadata), unique-local, multicast, unspecified (0.0.0.0, ::),
 *     broadcast, CGNAT 100.64/10, reserved/documentation/benchmarking ranges, IPv4-mapped/-compatible IPv6,
 *     NAT64, 6to4 and Teredo.
 *  4. The connection is pinned to the checked address: the request goes to `scheme://<ip>:<port>/path` with the
 *     original `Host` header, and for https `tls.serverName = <host>` (SNI, and Bun verifies the certificate against
 *     `serverName` rather than the IP). A second DNS answer (rebinding) is never consulted.
 *  5. Redirects are followed by hand (`redirect: 'manual'`) and each `Location` goes through 1-4 again.
 *  6. One deadline (`timeoutMs`) covers DNS, every hop and the body; the body is streamed and the read is aborted
 *     as soon as it passes `maxBytes` (after decompression: a gzip bomb is cut at the cap too).
 *  7. `accept` (media-type prefixes) is checked on the final 2xx answer.
 *
 * Errors (all `ServiceError`):
 *  - refused URL: 422 `URL_NOT_ALLOWED` (422, not 403: the request body names a URL the service will not fetch;
 *    nothing about the caller's authorisation), `details: { url, reason }`;
 *  - body over the cap: 422 `RESPONSE_TOO_LARGE`; media type not accepted: 415 `UNSUPPORTED_MEDIA_TYPE`;
 *  - DNS failure / connection refused / reset / TLS failure / more than `maxRedirects` redirects: 502 via
 *    `upstreamError('target', ...)`; the deadline: 504 via `upstreamError('target', ..., { timeout: true })`.
 *
 * `allowHosts` (env `FETCH_ALLOW_HOSTS`, `host` or `host:port`) skips ONLY the address-range check of step 3 for
 * those hosts (tests use it to reach loopback fixture servers); scheme, redirect, size and time rules still apply,
 * and the connection is still pinned.
 *
 * Limits: pinning relies on Bun's `fetch` honouring an explicit `Host` header and `tls.serverName` (Bun >= 1.1;
 * checked in test/net/safe-fetch.test.ts). An https URL whose host is an IP literal is verified against that IP.
 * HTTP(S)_PROXY environment variables, when set, are honoured by Bun's fetch: the proxy then receives the pinned IP URL.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'
import type { FetchedPage, SafeFetch, SafeFetchOptions } from '../sdk/context'
import { ServiceError, upstreamError } from '../sdk/errors'

export interface CreateSafeFetchOptions {
  /** Hosts (`host` or `host:port`, lower case) exempt from the address-range check; from env FETCH_ALLOW_HOSTS. */
  allowHosts?: string[]
  /** Default byte cap (2 MiB). A call may lower or raise it through `SafeFetchOptions.maxBytes`, up to 25 MiB. */
  maxBytes?: number
  /** Default deadline for the whole exchange (10 s). */
  timeoutMs?: number
  /** Redirects followed at most (5). */
  maxRedirects?: number
  /** Resolver returning every address of a host (default: the system resolver, all families). */
  lookup?: (host: string) => Promise<string[]>
  userAgent?: string
  /** Transport (default global fetch). Tests inject a recorder to see the pinned connection. */
  fetchImpl?: (
    url: string,
    init: RequestInit & { tls?: { serverName?: string; ca?: string | string[] } },
  ) => Promise<Response>
  /** Extra CA certificates (PEM) for https targets; tests only. */
  ca?: string | string[]
}

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024
export const HARD_MAX_BYTES = 25 * 1024 * 1024
export const DEFAULT_TIMEOUT_MS = 10_000
export const DEFAULT_MAX_REDIRECTS = 5
export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; x402-agent-api/1.0; web reader for AI agents)'

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** Why an address may not be connected to, or undefined when it is public unicast. */
export function addressRefusal(addr: string): string | undefined {
  const raw = addr.replace(/^\[|\]$/g, '')
  if (raw.includes('%')) return `${raw} carries an IPv6 zone id`
  if (!ipaddr.isValid(raw)) return `${raw} is not an IP address`
  const ip = ipaddr.parse(raw)
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6
    if (v6.isIPv4MappedAddress()) return `${raw} is an IPv4-mapped IPv6 address (${v6.toIPv4Address().toString()})`
    const range = v6.range()
    if (range !== 'unicast') return `${raw} is in a non-public IPv6 range (${range})`
    if ((v6.parts[0] & 0xe000) !== 0x2000) return `${raw} is outside global unicast 2000::/3`
    return undefined
  }
  const range = (ip as ipaddr.IPv4).range()
  if (range !== 'unicast')
    return `${raw} is in a non-public IPv4 range (${range === 'linkLocal' && raw === '169.254.169.254' ? 'cloud metadata endpoint' : range})`
  return undefined
}

function refused(url: string, reason: string): ServiceError {
  return new ServiceError(422, 'URL_NOT_ALLOWED', `URL not allowed: ${reason}`, { details: { url, reason } })
}

const defaultLookup = async (host: string): Promise<string[]> =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address)

/** Parses `text/html; charset=utf-8` into its parts. */
export function parseContentType(v: string | null): { type: string; charset?: string } {
  if (!v) return { type: '' }
  const [type, ...params] = v.split(';')
  const cs = params.map((p) => p.trim()).find((p) => /^charset=/i.test(p))
  return {
    type: type.trim().toLowerCase(),
    charset: cs
      ?.slice(8)
      .trim()
      .replace(/^["']|["']$/g, '')
      .toLowerCase(),
  }
}

/** Decodes a body: charset from the header, else a `<meta charset>` / XML declaration in the first 2 KiB, else UTF-8. */
export function decodeBody(body: Uint8Array, contentType: string | null): string {
  let charset = parseContentType(contentType).charset
  if (!charset) {
    const head = new TextDecoder('latin1').decode(body.subarray(0, 2048))
    charset = (/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head) ??
      /<\?xml[^>]+encoding\s*=\s*["']([\w-]+)/i.exec(head))?.[1]?.toLowerCase()
  }
  try {
    return new TextDecoder(charset || 'utf-8').decode(body)
  } catch {
    return new TextDecoder('utf-8').decode(body)
  }
}

const hostKey = (u: URL) => {
  const port = u.port || (u.protocol === 'https:' ? '443' : '80')
  return { host: u.hostname.toLowerCase().replace(/^\[|\]$/g, ''), port }
}

export function createSafeFetch(opts: CreateSafeFetchOptions = {}): SafeFetch {
  const allow = new Set((opts.allowHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean))
  const lookup = opts.lookup ?? defaultLookup
  const transport = opts.fetchImpl ?? ((url, init) => fetch(url, init as RequestInit))
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  const userAgent = opts.userAgent ?? DEFAULT_USER_AGENT

  const isAllowlisted = (u: URL) => {
    const { host, port } = hostKey(u)
    return allow.has(host) || allow.has(`${host}:${port}`) || allow.has(`[${host}]:${port}`)
  }

  /** Checks one URL and returns the address to connect to. */
  async function check(raw: string, signal: AbortSignal): Promise<{ url: URL; address: string }> {
    let u: URL
    try {
      u = new URL(raw)
    } catch {
      throw refused(raw, 'not an absolute URL')
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw refused(raw, `scheme ${u.protocol} is not allowed (http and https only)`)
    if (u.username || u.password) throw refused(raw, 'credentials in the URL are not allowed')
    const { host, port } = hostKey(u)
    if (!host) throw refused(raw, 'no host')
    const allowlisted = isAllowlisted(u)
    const p = Number(port)
    if (!allowlisted && p !== 80 && p !== 443 && p < 1024)
      throw refused(raw, `port ${p} is not allowed (80, 443 or 1024-65535)`)
    if (ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host))) {
      const why = allowlisted ? undefined : addressRefusal(host)
      if (why) throw refused(raw, why)
      return { url: u, address: host }
    }
    if (!allowlisted && (host === 'localhost' || host.endsWith('.localhost')))
      throw refused(raw, `${host} is a loopback name`)
    let addresses: string[]
    try {
      addresses = await Promise.race([
        lookup(host),
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason)
          signal.addEventListener('abort', () => reject(signal.reason), { once: true })
        }),
      ])
    } catch (e) {
      if (signal.aborted) throw e
      throw upstreamError('target', `cannot resolve ${host}: ${(e as Error).message ?? e}`, { retryable: false })
    }
    if (!addresses.length) throw upstreamError('target', `cannot resolve ${host}: no addresses`, { retryable: false })
    if (!allowlisted) {
      for (const a of addresses) {
        const why = addressRefusal(a)
        if (why) throw refused(raw, `${host} resolves to ${why}`)
      }
    }
    return { url: u, address: addresses[0].replace(/^\[|\]$/g, '') }
  }

  return async function safeFetch(rawUrl: string, o: SafeFetchOptions = {}): Promise<FetchedPage> {
    const maxBytes = Math.min(o.maxBytes ?? opts.maxBytes ?? DEFAULT_MAX_BYTES, HARD_MAX_BYTES)
    const timeoutMs = o.timeoutMs ?? opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const ctl = new AbortController()
    const timeoutErr = upstreamError('target', `the URL did not answer within ${timeoutMs} ms`, { timeout: true })
    const timer = setTimeout(() => ctl.abort(timeoutErr), timeoutMs)
    const method = o.method ?? 'GET'
    let current = rawUrl
    try {
      for (let hop = 0; ; hop++) {
        const { url, address } = await check(current, ctl.signal)
        const pinned = new URL(url.href)
        pinned.hostname = address.includes(':') ? `[${address}]` : address
        pinned.hash = ''
        const headers: Record<string, string> = {
          'user-agent': userAgent,
          accept: o.accept?.length
            ? [...o.accept.map((a) => (a.endsWith('/') ? `${a}*` : a)), '*/*;q=0.1'].join(', ')
            : '*/*',
          ...Object.fromEntries(Object.entries(o.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
          host: url.host,
        }
        const isIpHost = ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''))
        let res: Response
        try {
          res = await transport(pinned.href, {
            method,
            headers,
            redirect: 'manual',
            signal: ctl.signal,
            ...(url.protocol === 'https:'
              ? { tls: { ...(isIpHost ? {} : { serverName: url.hostname }), ...(opts.ca ? { ca: opts.ca } : {}) } }
              : {}),
          })
        } catch (e) {
          if (ctl.signal.aborted) throw ctl.signal.reason
          throw upstreamError('target', `cannot reach ${url.host}: ${(e as Error).message ?? e}`)
        }
        if (REDIRECTS.has(res.status) && res.headers.get('location')) {
          await res.body?.cancel().catch(() => {})
          if (hop >= maxRedirects)
            throw upstreamError('target', `more than ${maxRedirects} redirects`, { retryable: false })
          try {
            current = new URL(res.headers.get('location')!, url).href
          } catch {
            throw upstreamError('target', `invalid redirect location from ${url.host}`, { retryable: false })
          }
          continue
        }
        const ctHeader = res.headers.get('content-type')
        const { type } = parseContentType(ctHeader)
        if (
          o.accept?.length &&
          res.status >= 200 &&
          res.status < 300 &&
          method === 'GET' &&
          !o.accept.some((a) => type.startsWith(a.toLowerCase()))
        ) {
          await res.body?.cancel().catch(() => {})
          throw new ServiceError(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            `the URL returned ${type || 'no content type'}; expected ${o.accept.join(', ')}`,
            { details: { url: url.href, content_type: type } },
          )
        }
        const body = method === 'HEAD' ? new Uint8Array() : await readCapped(res, maxBytes, url.href, ctl.signal)
        return {
          url: url.href,
          status: res.status,
          headers: res.headers,
          contentType: type,
          body,
          text: () => decodeBody(body, ctHeader),
        }
      }
    } catch (e) {
      if (e instanceof ServiceError) throw e
      if (ctl.signal.aborted) throw ctl.signal.reason
      throw upstreamError('target', `fetch failed: ${(e as Error).message ?? e}`)
    } finally {
      clearTimeout(timer)
    }
  }
}

function tooLarge(url: string, maxBytes: number): ServiceError {
  return new ServiceError(422, 'RESPONSE_TOO_LARGE', `the response is larger than ${maxBytes} bytes`, {
    details: { url, max_bytes: maxBytes },
  })
}

async function readCapped(res: Response, maxBytes: number, url: string, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes && !res.headers.get('content-encoding')) {
    await res.body?.cancel().catch(() => {})
    throw tooLarge(url, maxBytes)
  }
  if (!res.body) return new Uint8Array()
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > maxBytes) {
        await reader.cancel().catch(() => {})
        throw tooLarge(url, maxBytes)
      }
      chunks.push(value)
    }
  } catch (e) {
    if (e instanceof ServiceError) throw e
    if (signal.aborted) throw signal.reason
    throw upstreamError('target', `the connection broke while reading the body: ${(e as Error).message ?? e}`)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}
