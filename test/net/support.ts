/**
 * Loopback fixture servers for the web-reader and live-data tests (no test reaches the internet), and a
 * ServiceContext wired to them through the real safe fetcher and upstream clients.
 */
import { expect } from 'bun:test'
import { createSafeFetch, type CreateSafeFetchOptions } from '../../runtime/net/safe-fetch'
import { createUpstreams, type CreateUpstreamsOptions, type UpstreamConfig } from '../../runtime/net/upstream'
import {
  ServiceError,
  testContext,
  type ServiceContext,
  type ServiceManifest,
  type Static,
  type UpstreamDefault,
} from '../../runtime/sdk'
import { upstreams } from '../../services/upstreams'

export interface Fixture {
  /** http://127.0.0.1:<port> */
  url: string
  port: number
  host: string
  /** Every request received, in order. */
  requests: Request[]
  /** Requests whose path starts with `prefix`. */
  hits(prefix?: string): number
  stop(): void
}

type Route = (req: Request, url: URL) => Response | Promise<Response>

/** Starts a loopback server answering with `route`; records every request. */
export function serve(route: Route): Fixture {
  const requests: Request[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 30,
    fetch(req) {
      // A copy: the original's headers are not readable after the response is sent.
      requests.push(new Request(req.url, { method: req.method, headers: new Headers(req.headers) }))
      return route(req, new URL(req.url))
    },
  })
  const port = server.port as number
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    host: `127.0.0.1:${port}`,
    requests,
    hits: (prefix = '/') => requests.filter((r) => new URL(r.url).pathname.startsWith(prefix)).length,
    stop: () => server.stop(true),
  }
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })

export const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } })

/** A response whose body never finishes (the server keeps the stream open). */
export function hanging(contentType = 'text/html'): Response {
  return new Response(
    new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('<html><body>start'))
      },
    }),
    { headers: { 'content-type': contentType } },
  )
}

/** A response that never starts (headers withheld until the client gives up). */
export function neverAnswers(req: Request): Promise<Response> {
  return new Promise((resolve) => req.signal.addEventListener('abort', () => resolve(new Response('late'))))
}

/** A safe fetcher that may reach exactly these fixtures (allowHosts), everything else checked as in production. */
export function loopbackFetch(fixtures: Fixture[], extra: CreateSafeFetchOptions = {}) {
  return createSafeFetch({ allowHosts: fixtures.map((f) => f.host), timeoutMs: 3000, ...extra })
}

/** Upstream clients whose named upstreams point at fixture servers (base URL = fixture URL + optional path). */
export function fixtureUpstreams(
  map: Record<string, Fixture | UpstreamConfig | string>,
  opts: CreateUpstreamsOptions & { timeoutMs?: number } = {},
) {
  const config: Record<string, UpstreamConfig> = {}
  for (const [name, v] of Object.entries(map)) {
    // a declared upstream keeps its attribution (services/upstreams.ts), as boot gives it
    const attribution = (upstreams as Record<string, UpstreamDefault>)[name]?.attribution
    config[name] =
      typeof v === 'string'
        ? { url: v, timeoutMs: opts.timeoutMs ?? 2000, attribution }
        : 'port' in v
          ? { url: v.url, timeoutMs: opts.timeoutMs ?? 2000, attribution }
          : { attribution, ...v }
  }
  return createUpstreams(config, fetch, opts)
}

/** A ServiceContext through `testContext` with the given fetch/upstream (and a fixed clock when given). */
export function ctxWith(
  o: {
    fetch?: ServiceContext['fetch']
    upstream?: ServiceContext['upstream']
    now?: string | Date
    service?: string
  } = {},
): ServiceContext {
  const now = o.now ? new Date(o.now) : undefined
  return testContext({
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.upstream ? { upstream: o.upstream } : {}),
    ...(now ? { now: () => now } : {}),
    ...(o.service ? { service: o.service } : {}),
  })
}

/** Awaits a promise that must reject with a ServiceError; returns it for further checks. */
export async function serviceError(
  p: Promise<unknown> | unknown,
  status: number,
  code?: string,
): Promise<ServiceError> {
  let err: unknown
  try {
    await p
  } catch (e) {
    err = e
  }
  if (!(err instanceof ServiceError))
    throw new Error(
      `expected ServiceError ${status}${code ? ` ${code}` : ''}, got ${err instanceof Error ? `${err.name}: ${err.message}` : 'a value'}`,
    )
  expect({ status: err.status, code: code ? (err.code as string) : undefined }).toEqual({ status, code })
  return err
}

/** Checks a 502/504 carries `upstream` and `retryable`. */
export async function upstreamFailure(
  p: Promise<unknown> | unknown,
  status: 502 | 504,
  upstream: string,
  retryable?: boolean,
): Promise<ServiceError> {
  const e = await serviceError(p, status)
  expect(e.extra?.upstream).toBe(upstream)
  expect(typeof e.extra?.retryable).toBe('boolean')
  if (retryable !== undefined) expect(e.extra?.retryable).toBe(retryable)
  return e
}

/** A handler typed by its manifest (input and awaited output), for direct calls in tests. */
export function typed<M extends ServiceManifest>(_manifest: M, handler: unknown) {
  return handler as (input: Static<M['input']>, ctx: ServiceContext) => Promise<Static<M['output']>>
}
