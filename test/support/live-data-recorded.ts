/**
 * The loopback upstream of the live-data services, shared by services/<slug>/upstream.test.ts. It answers with the
 * answers recorded beside each service (services/<slug>/recorded.json, each upstream's real format,
 * docs/peers-and-references.md §5, their error answers included), and with the failure forms every upstream has
 * (`mode`). No test reaches the internet, and a new live-data service adds its recorded.json, never a line here.
 *
 * recorded.json: `{ "answers": [{ "upstream", "requests": ["/path?query", …], "status"?, "accept"?, "body" }] }`.
 * A request matches when its path and its query parameters (in any order) are those of one of `requests`, relative
 * to the upstream's base URL; a placeholder of the base URL (`{lang}`) is a path segment. `status` defaults to 200;
 * `accept`, when given, is the Accept header the upstream requires (another one is answered 415, as DoH does).
 */
import { afterAll, expect } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { issues } from '../../runtime/input/validate'
import { upstreams as declared } from '../../services/upstreams'
import { ctxWith, fixtureUpstreams, json, neverAnswers, serve, upstreamFailure } from '../net/support'
import { entries } from './entries'

interface RecordedAnswer {
  upstream: string
  requests: string[]
  status?: number
  accept?: string
  body: unknown
}

const servicesDir = join(import.meta.dir, '..', '..', 'services')

/** The answers recorded beside one service. */
function recordedAnswers(slug: string): RecordedAnswer[] {
  return JSON.parse(readFileSync(join(servicesDir, slug, 'recorded.json'), 'utf8')).answers
}

/** Every service's recorded answers. */
const allAnswers = (): RecordedAnswer[] =>
  [...new Bun.Glob('*/recorded.json').scanSync(servicesDir)].flatMap((f) => recordedAnswers(f.split('/')[0]))

/** Open-Meteo's recorded `forecast?current=…` answer (Berlin), weather-current's first. */
export const FORECAST_CURRENT = recordedAnswers('weather-current')[0].body as Record<string, unknown>

/** Where each upstream is mounted on the loopback server: a short path for the ones tests name (`up.hits('/cg/')`). */
const MOUNTS: Record<string, string> = {
  'open-meteo': 'meteo',
  'open-meteo-air-quality': 'air',
  'open-meteo-geocoding': 'geo',
  frankfurter: 'fx',
  coingecko: 'cg',
  wikipedia: 'wiki',
  'hn-algolia': 'hn',
  ipwhois: 'ipwho',
}
const mountOf = (upstream: string) => MOUNTS[upstream] ?? upstream

const sameQuery = (a: URLSearchParams, b: URLSearchParams) => {
  const sorted = (q: URLSearchParams) => JSON.stringify([...q].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
  return sorted(a) === sorted(b)
}

/** The recorded answer to `path?query` of `upstream`, if any. */
function find(answers: RecordedAnswer[], upstream: string, url: URL): RecordedAnswer | undefined {
  const path = decodeURIComponent(url.pathname.slice(mountOf(upstream).length + 1))
  return answers.find(
    (a) =>
      a.upstream === upstream &&
      a.requests.some((r) => {
        const rec = new URL(r, 'http://recorded')
        return decodeURIComponent(rec.pathname) === path && sameQuery(rec.searchParams, url.searchParams)
      }),
  )
}

/**
 * Starts the recorded upstream for one test file (stopped after it). `mode[mount]` switches an upstream's mount
 * (`meteo`, `cg`, …) to a failure form: '500' | 'hang' | 'garbage'.
 */
export function recordedUpstreams() {
  const mode: Record<string, string> = {}
  const answers = allAnswers()
  const byMount = new Map(Object.keys(declared).map((name) => [mountOf(name), name]))
  const up = serve((req, url) => {
    const mount = url.pathname.split('/')[1]
    const m = mode[mount]
    if (m === '500') return json({ error: 'Internal Server Error' }, 500)
    if (m === 'hang') return neverAnswers(req)
    if (m === 'garbage')
      return new Response('<html><body>502 Bad Gateway</body></html>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      })
    const upstream = byMount.get(mount)
    const answer = upstream ? find(answers, upstream, url) : undefined
    if (!answer) return json({ error: 'no recorded answer', path: url.pathname + url.search }, 404)
    if (answer.accept && req.headers.get('accept') !== answer.accept) return new Response('bad accept', { status: 415 })
    return json(answer.body, answer.status ?? 200)
  })
  afterAll(() => up.stop())
  // Each declared upstream at its mount; a placeholder of its default base URL becomes a path segment.
  const bases = Object.fromEntries(
    Object.entries(declared).map(([name, d]) => [
      name,
      `${up.url}/${mountOf(name)}${[...d.url.matchAll(/\{[a-z_]+\}/g)].map((p) => `/${p[0]}`).join('')}`,
    ]),
  )
  const upstreams = () => fixtureUpstreams(bases, { timeoutMs: 400 })
  const ctx = (now = '2024-05-02T12:00:00Z') => ctxWith({ upstream: upstreams(), now })

  /** Runs `call` with the upstream's mount in each failure mode and checks the 502/504 carries upstream and retryable. */
  async function failureForms(prefix: string, upstreamName: string, call: () => Promise<unknown>) {
    try {
      mode[prefix] = '500'
      await upstreamFailure(call(), 502, upstreamName, true)
      mode[prefix] = 'garbage'
      await upstreamFailure(call(), 502, upstreamName, true)
      mode[prefix] = 'hang'
      await upstreamFailure(call(), 504, upstreamName, true)
    } finally {
      delete mode[prefix]
    }
  }
  return { up, mode, ctx, failureForms, upstreams }
}

/** Asserts an answer matches the service's declared output schema. */
export function conforms(slug: string, out: unknown) {
  expect(issues(entries.find((e) => e.folder === slug)!.manifest.output, out)).toEqual([])
}
