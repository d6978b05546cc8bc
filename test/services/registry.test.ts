import { describe, expect, test } from 'bun:test'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generated, render, renderHandlers } from '../../scripts/gen-registry'
import { loadConfig } from '../../runtime/config'
import { buildCatalog } from '../../runtime/catalog/index'
import { categories, entries, upstreams } from '../support/entries'
import { echoEntry } from '../support/extra-service'

const root = join(import.meta.dir, '..', '..')

describe('generated registry index', () => {
  test('every generated file (services/index.gen.ts, services/handlers.gen.ts, the registry hash, docs/upstreams.md) is up to date', () => {
    for (const [name, text] of generated()) expect([name, readFileSync(join(root, name), 'utf8')]).toEqual([name, text])
  })
  test("the worker pool's handler index lists every built service", () => {
    const listed = [...renderHandlers().matchAll(/^ {2}'([a-z0-9-]+)': /gm)].map((m) => m[1])
    expect(listed).toEqual(entries.filter((e) => e.handler).map((e) => e.folder))
  })
  test('adding a folder changes the index (the drift check would fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gen-'))
    cpSync(join(root, 'services'), dir, { recursive: true })
    mkdirSync(join(dir, 'brand-new'))
    writeFileSync(join(dir, 'brand-new', 'manifest.ts'), 'export default {}')
    const next = render(dir)
    expect(next).not.toBe(render())
    expect(next).toContain("'./brand-new/manifest'")
    expect(next).toContain("folder: 'brand-new', manifest: ")
    rmSync(dir, { recursive: true })
  })
  test('services never import the framework or the database', () => {
    const glob = new Bun.Glob('services/**/*.ts')
    const bad = [...glob.scanSync(root)].filter((f) =>
      /from ['"](elysia|bun:sqlite|.*runtime\/(?!sdk)[^'"]*)['"]/.test(readFileSync(join(root, f), 'utf8')),
    )
    expect(bad).toEqual([])
  })
  test('only the entry points import services/: runtime/index.ts and the worker (the binary build entries)', () => {
    // The build's entry points (package.json `build`): the server and the worker pool's worker.
    const entryPoints = ['runtime/index.ts', 'runtime/isolate/worker.ts']
    const build: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.build
    for (const e of entryPoints) expect(build).toContain(` ${e}`)
    const importers = [...new Bun.Glob('runtime/**/*.ts').scanSync(root)].filter((f) =>
      /(from|import\()\s*['"](\.\.\/)+services\//.test(readFileSync(join(root, f), 'utf8')),
    )
    expect(importers.sort()).toEqual(entryPoints)
  })
  test('every service that calls an upstream keeps its recorded answers beside it (recorded.json)', () => {
    const callers = entries.filter((e) => e.manifest.upstreams?.length).map((e) => e.folder)
    expect(callers.length).toBeGreaterThan(5)
    const recorders = [...new Bun.Glob('*/recorded.json').scanSync(join(root, 'services'))].map((f) => f.split('/')[0])
    expect(recorders.sort()).toEqual(callers)
    for (const slug of recorders) {
      const { answers } = JSON.parse(readFileSync(join(root, 'services', slug, 'recorded.json'), 'utf8'))
      expect([slug, answers.length > 0]).toEqual([slug, true])
      for (const a of answers) {
        expect([slug, a.upstream, a.upstream in upstreams]).toEqual([slug, a.upstream, true])
        expect(a.requests.every((r: string) => r.startsWith('/'))).toBe(true)
        expect(a.body).toBeDefined()
      }
    }
  })
  test('the generated index imports nothing from runtime/ but the sdk, and only types', () => {
    for (const text of [render(), renderHandlers()]) {
      const fromRuntime = [...text.matchAll(/^import (type )?.* from '(\.\.\/runtime\/[^']*)'/gm)]
      expect(fromRuntime.map((m) => [m[1], m[2]])).toEqual(text === render() ? [['type ', '../runtime/sdk']] : [])
      expect(text).not.toMatch(/from '\.\.\/(?!runtime\/sdk')/)
    }
  })
})

describe('boot validation lists every problem at once', () => {
  test('bad config and bad manifests are all reported', () => {
    const { config, problems } = loadConfig(
      { PAY_TO: 'nope', NETWORK: 'base', RPC_URL: 'ftp://x' },
      'services: { no-such: { enabled: false } }',
    )
    expect(problems.length).toBeGreaterThanOrEqual(3)
    expect(problems.join('\n')).toContain('PAY_TO')
    expect(problems.join('\n')).toContain('NETWORK')
    const broken = [
      { ...echoEntry, folder: 'wrong-folder' },
      {
        ...echoEntry,
        folder: 'x2',
        manifest: { ...echoEntry.manifest, slug: 'x2', pricing: { flat: { price_usd: 0.0000001, max_tokens: 0 } } },
      },
    ]
    const { problems: mp } = buildCatalog([...entries, ...broken], config, false, categories)
    const text = mp.join('\n')
    expect(text).toContain('registry.yaml services.no-such: no such service')
    expect(text).toContain("slug 'test-echo' must equal the folder name")
    expect(text).toContain('more than 6 decimals')
  })
  test('a category must be one of services/categories.ts; tags come from there (category first, at most 5)', () => {
    const { config } = loadConfig({}, '')
    const odd = { ...echoEntry, manifest: { ...echoEntry.manifest, category: 'gardening' } }
    const { problems } = buildCatalog([...entries, odd], config, false, categories)
    expect(problems.join('\n')).toContain("services/test-echo: category 'gardening' is not one of analysis, web,")
    for (const [name, tags] of Object.entries(categories))
      expect([name, tags[0], tags.length <= 5]).toEqual([name, name, true])
    const { services } = buildCatalog(entries, config, false, categories)
    const hash = services.find((s) => s.slug === 'hash-digest')!
    expect(hash.tags).toEqual(categories[hash.manifest.category as keyof typeof categories])
  })
  test('operator overrides change prices and disable services', () => {
    const { config } = loadConfig(
      {},
      'services: { slugify: { price_usd: 0.002 }, lorem-ipsum: { enabled: false }, explain-code: { prices: { pro: 0.2 }, model: op-model } }',
    )
    const { services, problems } = buildCatalog(entries, config, true, categories)
    expect(problems).toEqual([])
    expect(services.find((s) => s.slug === 'slugify')!.amounts.flat).toBe('2000')
    expect(services.some((s) => s.slug === 'lorem-ipsum')).toBe(false)
    const ec = services.find((s) => s.slug === 'explain-code')!
    expect([ec.amounts.pro, ec.amounts.quick, ec.model]).toEqual(['200000', '10000', 'op-model'])
  })
})
