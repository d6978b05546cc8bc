/**
 * The one fixture runner (used by test/services/fixtures.test.ts and the model contract tests). A fixture runs a service's
 * handler with the same input preparation as the HTTP route, against scripted model replies, a loopback web site
 * and loopback upstreams when it declares them, then checks the answer. Format: services/README.md ("fixtures.json").
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createModelClient } from '../../runtime/model'
import { createSafeFetch } from '../../runtime/net/safe-fetch'
import { createUpstreams, type UpstreamConfig } from '../../runtime/net/upstream'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { entries, upstreams } from './entries'
import { issues, prepareInput } from '../../runtime/input/validate'
import { testContext, type ServiceContext, type TierName, type UpstreamDefault } from '../../runtime/sdk'
import { startFakeOpenAI, texts, type ChatBody, type FakeOpenAI, type FakeReply } from './fake-openai'

/** A scripted HTTP answer of the loopback web site or of a loopback upstream. */
export interface ScriptedResponse {
  status?: number
  /** JSON body (sent as application/json unless contentType says otherwise). */
  body?: unknown
  /** Text body (text/html unless contentType says otherwise). */
  text?: string
  /** Binary body, base64 (application/octet-stream unless contentType says otherwise). */
  base64?: string
  contentType?: string
  headers?: Record<string, string>
}

export interface Fixture {
  name: string
  source?: string
  input: unknown
  expect?: unknown
  expectError?: { status: number; code?: string }
  tolerance?: number
  /** ISO time that ctx.now() returns. */
  now?: string
  /** Tier of the call (tiered services; default standard). */
  tier?: TierName
  /** Scripted model replies, in order: `{ json }`, `{ text }`, `{ status, body? }` or `{ hang: true }`, each with optional `tokens`, `model`. */
  model?: FakeReply[]
  /** How many model requests the call makes (default: every scripted reply is used). */
  modelCalls?: number
  /** A string of the input that must reach the model in the user message only (never in the system prompt). */
  marker?: string
  /** Strings every model request must contain (e.g. text extracted from a fetched page). */
  modelSees?: string[]
  /** Strings no model request may contain (e.g. the URL the service fetched itself). */
  modelNeverSees?: string[]
  /** Strings the last model request must contain (e.g. the correction a retry asks for). */
  lastModelRequestContains?: string[]
  /** Loopback web pages by path; `{{web}}` in the input becomes the site's origin. */
  web?: Record<string, ScriptedResponse>
  /** Loopback upstreams by name: one answer for every call, or a list used in order. */
  upstream?: Record<string, ScriptedResponse | ScriptedResponse[]>
}

const servicesDir = join(import.meta.dir, '..', '..', 'services')

export function loadFixtures(folder: string): Fixture[] {
  const p = join(servicesDir, folder, 'fixtures.json')
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as Fixture[]) : []
}

/** A scripted answer as the loopback site sends it. */
export function toResponse(r: ScriptedResponse): Response {
  const status = r.status ?? 200
  if (r.base64 !== undefined)
    return new Response(Buffer.from(r.base64, 'base64'), {
      status,
      headers: { 'content-type': r.contentType ?? 'application/octet-stream', ...r.headers },
    })
  if (r.text !== undefined)
    return new Response(r.text, {
      status,
      headers: { 'content-type': r.contentType ?? 'text/html; charset=utf-8', ...r.headers },
    })
  return new Response(JSON.stringify(r.body ?? null), {
    status,
    headers: { 'content-type': r.contentType ?? 'application/json', ...r.headers },
  })
}

/** `v` with every `from` in its strings replaced by `to` (`{{web}}` in a fixture's input). */
export const replaceDeep = (v: unknown, from: string, to: string): unknown =>
  typeof v === 'string'
    ? v.split(from).join(to)
    : Array.isArray(v)
      ? v.map((x) => replaceDeep(x, from, to))
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceDeep(x, from, to)]))
        : v

/** What one fixture run produced, for checks beyond the answer. */
export interface FixtureRun {
  out?: unknown
  error?: unknown
  modelRequests: ChatBody[]
  /** Paths (with query) asked of the web site and of each upstream, in order. */
  requested: string[]
}

/** Loopback servers shared by the fixtures of one test file: a fake model provider and one web/upstream site. */
export interface FixtureServers {
  run(entry: RegistryEntry, f: Fixture): Promise<FixtureRun>
  close(): void
}

export function startFixtureServers(): FixtureServers {
  let fake: FakeOpenAI | undefined
  let web: Record<string, ScriptedResponse> = {}
  let upstream: Record<string, ScriptedResponse[] | ScriptedResponse> = {}
  const requested: string[] = []
  let site: ReturnType<typeof Bun.serve> | undefined
  const origin = () => {
    site ??= Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(req) {
        const url = new URL(req.url)
        requested.push(url.pathname + url.search)
        const up = url.pathname.match(/^\/_up\/([^/]+)(\/.*)?$/)
        if (up) {
          const q = upstream[up[1]]
          const r = Array.isArray(q) ? q.shift() : q
          return r ? toResponse(r) : new Response('fixture: no scripted upstream answer left', { status: 599 })
        }
        const page = web[url.pathname]
        return page ? toResponse(page) : new Response('not found', { status: 404 })
      },
    })
    return `http://127.0.0.1:${site.port}`
  }

  async function run(entry: RegistryEntry, f: Fixture): Promise<FixtureRun> {
    const m = entry.manifest
    const tier: TierName = f.tier ?? (m.kind === 'tiered' ? 'standard' : (Object.keys(m.pricing)[0] as TierName))
    const ctx: Partial<ServiceContext> = {
      service: m.slug,
      tier,
      maxTokens: m.pricing[tier]?.max_tokens ?? 0,
      now: f.now ? () => new Date(f.now!) : () => new Date(),
    }
    let input = f.input
    requested.length = 0
    if (f.model) {
      fake ??= startFakeOpenAI()
      fake.reset()
      fake.reply(...structuredClone(f.model))
      const hangs = f.model.some((r) => 'hang' in r)
      ctx.model = createModelClient({
        baseUrl: fake.url,
        apiKey: 'test',
        model: m.model,
        timeoutMs: hangs ? 150 : 5_000,
      })
    }
    if (f.web || f.upstream) {
      const base = origin()
      web = f.web ?? {}
      upstream = structuredClone(f.upstream ?? {})
      input = replaceDeep(input, '{{web}}', base)
      ctx.fetch = createSafeFetch({ allowHosts: [new URL(base).host], timeoutMs: 3000 })
      const config: Record<string, UpstreamConfig> = {}
      for (const name of Object.keys(upstream)) {
        const attribution = (upstreams as Record<string, UpstreamDefault>)[name]?.attribution
        config[name] = { url: `${base}/_up/${name}`, timeoutMs: 2000, attribution }
      }
      ctx.upstream = createUpstreams(config)
    }
    const result: FixtureRun = { modelRequests: fake && f.model ? fake.requests : [], requested }
    try {
      result.out = await entry.handler!(prepareInput(m.input, input) as never, testContext(ctx))
    } catch (e) {
      result.error = e
    }
    return result
  }

  return {
    run,
    close() {
      fake?.close()
      site?.stop(true)
    },
  }
}

/** The answer as the route sends it: tiered handlers' `{ result, tokens_used, model? }` wrapped like runtime/call/pipeline.ts does. */
function routeAnswer(entry: RegistryEntry, tier: TierName, out: unknown): unknown {
  if (entry.manifest.kind !== 'tiered') return out
  const r = out as { result: string; model?: string; tokens_used: number }
  return {
    service: entry.manifest.slug,
    tier,
    result: r.result,
    model: r.model ?? entry.manifest.model,
    tokens_used: r.tokens_used,
    request_id: 'req_0123456789abcdef0123',
  }
}

/** Problems with the model requests of a run, as readable strings (empty when all checks pass). */
export function modelProblems(f: Fixture, run: FixtureRun): string[] {
  const out: string[] = []
  const reqs = run.modelRequests
  const calls = f.modelCalls ?? f.model?.length ?? 0
  if (f.model && reqs.length !== calls) out.push(`expected ${calls} model request(s), got ${reqs.length}`)
  for (const [i, body] of reqs.entries()) {
    const { system, user } = texts(body)
    const all = JSON.stringify(body)
    if (f.marker && (!user.includes(f.marker) || system.includes(f.marker)))
      out.push(`request ${i}: the marker must be in the user message only`)
    for (const s of f.modelSees ?? [])
      if (!all.includes(s)) out.push(`request ${i}: does not contain ${JSON.stringify(s)}`)
    for (const s of f.modelNeverSees ?? []) if (all.includes(s)) out.push(`request ${i}: contains ${JSON.stringify(s)}`)
  }
  const last = reqs.at(-1)
  for (const s of f.lastModelRequestContains ?? [])
    if (!last || !JSON.stringify(last).includes(s)) out.push(`last request: does not contain ${JSON.stringify(s)}`)
  return out
}

/** Output-schema problems of a successful answer. */
export const schemaProblems = (entry: RegistryEntry, tier: TierName, out: unknown) =>
  issues(entry.manifest.output, routeAnswer(entry, tier, out))

/**
 * The runner for one service folder, for its own `services/<slug>/*.test.ts` (which import only the sdk and
 * test/support): `fixture(prefix)` finds a fixture of its fixtures.json by the start of its name.
 * @example
 * const svc = serviceRunner('code-review'); afterAll(svc.close)
 * const run = await svc.run(svc.fixture('model: standard tier'))
 */
export function serviceRunner(folder: string) {
  const entry = entries.find((e) => e.folder === folder)
  if (!entry?.handler) throw new Error(`no built service in services/${folder}`)
  const servers = startFixtureServers()
  return {
    run: (f: Fixture) => servers.run(entry, f),
    fixture(prefix: string): Fixture {
      const f = loadFixtures(folder).find((x) => x.name.startsWith(prefix))
      if (!f) throw new Error(`services/${folder}/fixtures.json has no fixture named "${prefix}…"`)
      return f
    },
    close: () => servers.close(),
  }
}
