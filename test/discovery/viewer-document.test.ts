/**
 * The viewer's document (/docs/openapi.json) is smaller than /openapi/full.json but shows the same thing: the same
 * operations, and each operation's responses, with their `$ref`s resolved, the full document's responses (in OpenAPI
 * 3.0's words, without the `x-…` extensions the viewer does not display). The published documents keep every
 * response inline.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { openApi30 } from '../../runtime/discovery/docs-page'
import { startApp, type TestServer } from '../support/server'

type Op = Record<string, unknown> & { responses?: Record<string, unknown> }
type Doc = { paths: Record<string, Record<string, Op>>; components?: { responses?: Record<string, unknown> } }

let s: TestServer
let full: Doc
let viewer: Doc
let viewerBytes: number
let refs = 0
beforeAll(async () => {
  s = await startApp()
  full = (await (await s.fetch('/openapi/full.json')).json()) as Doc
  const text = await (await s.fetch('/docs/openapi.json')).text()
  viewerBytes = text.length
  viewer = JSON.parse(text) as Doc
})
afterAll(() => s.stop())

/** `x-…` keys dropped everywhere except as names in a `properties` map (the documents have no such property). */
const withoutX = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutX)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !k.startsWith('x-'))
            .map(([k, x]) => [k, withoutX(x)]),
        )
      : v

/** Every `#/components/…` reference in `v` replaced by what it points to in the viewer's document, at any depth. */
function resolve(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(resolve)
  if (!v || typeof v !== 'object') return v
  if ('$ref' in v) {
    const ref = (v as { $ref: string }).$ref
    expect(ref).toStartWith('#/components/')
    let at: unknown = viewer
    for (const part of ref.slice(2).split('/')) at = (at as Record<string, unknown>)[part]
    expect(at).toBeDefined()
    refs++
    return resolve(at)
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]))
}

test('the same operations; each one shows what the full document says, its shared responses resolved', () => {
  const expected = withoutX(openApi30(full)) as Doc
  const list = (d: Doc) => Object.entries(d.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
  expect(list(viewer).sort()).toEqual(list(full).sort())
  expect(list(viewer).length).toBeGreaterThan(100)
  for (const [path, ops] of Object.entries(expected.paths))
    for (const [method, op] of Object.entries(ops)) {
      const got = viewer.paths[path]![method]!
      const { responses, ...rest } = got
      expect(rest).toEqual(Object.fromEntries(Object.entries(op).filter(([k]) => k !== 'responses')))
      expect(resolve(responses ?? {})).toEqual(op.responses ?? {})
    }
  // the shared 402 and error responses (and the X-Ignored-Fields header) are written once, referred to by many
  expect(refs).toBeGreaterThan(2 * list(viewer).length)
  expect(Object.keys(viewer.components?.responses ?? {}).length).toBeGreaterThan(2)
  expect(Object.keys((viewer.components as { headers?: object }).headers ?? {})).toContain('X-Ignored-Fields')
})

test('the viewer document is smaller; the published documents keep every response inline', async () => {
  const fullBytes = JSON.stringify(full).length
  expect(viewerBytes).toBeLessThan(0.8 * fullBytes)
  for (const path of ['/openapi.json', '/openapi/full.json']) {
    const text = await (await s.fetch(path)).text()
    expect(text).not.toContain('#/components/responses/')
    expect(text).toContain('x-payment-info')
  }
})
