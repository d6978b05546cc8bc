/**
 * The runtime's layout, read from the import statements themselves (runtime/README.md "Layout"): the root holds the
 * composition only, every folder below it is one concern, no file reaches back up into the composition, and the
 * folders' imports (types included) run one way: no circle between two concerns.
 */
import { expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { circles, importsOf, rel, RUNTIME, tsFiles } from '../support/imports'

const COMPOSITION = ['app.ts', 'assets.d.ts', 'boot.ts', 'index.ts', 'lazy-routes.ts', 'log.ts']
const files = tsFiles(RUNTIME)
const graph = new Map(files.map((f) => [f, importsOf(f)]))
const folderOf = (f: string) => {
  const r = rel(f)
  return r.includes('/') ? r.slice(0, r.indexOf('/')) : null
}

test('the root of runtime/ holds the composition only (entry, boot, app, lazy routes, log)', () => {
  const top = readdirSync(RUNTIME, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== 'README.md')
    .map((e) => e.name)
    .sort()
  expect(top).toEqual(COMPOSITION)
})

test('the catalog pieces live in catalog/, the call path in call/', () => {
  const names = (dir: string) => readdirSync(join(RUNTIME, dir)).sort()
  expect(names('catalog')).toEqual(
    expect.arrayContaining(['index.ts', 'registry.ts', 'registry-types.ts', 'lazy-handler.ts', 'error-vocabulary.ts']),
  )
  expect(names('call')).toEqual(
    expect.arrayContaining(['pipeline.ts', 'run-handler.ts', 'context.ts', 'demo.ts', 'stream']),
  )
})

test('no import runs back up: nothing below the root imports the composition', () => {
  const up = files.flatMap((f) =>
    folderOf(f) === null
      ? []
      : graph
          .get(f)!
          .filter((e) => folderOf(e.to) === null)
          .map((e) => `${rel(f)} -> ${rel(e.to)}`),
  )
  expect(up).toEqual([])
})

test('the folders import one way: no circle between two concerns (type-only imports included)', () => {
  const edges = new Map<string, Set<string>>()
  for (const f of files) {
    const from = folderOf(f)
    if (!from) continue
    for (const e of graph.get(f)!) {
      const to = folderOf(e.to)
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to))
    }
  }
  // The reader sees the expected direction (so the check below is not vacuous).
  expect([...(edges.get('pay') ?? [])]).toEqual(expect.arrayContaining(['catalog', 'db', 'sdk']))
  expect([...(edges.get('call') ?? [])]).toEqual(expect.arrayContaining(['pay', 'catalog', 'http']))
  const folders = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])])]
  expect(circles(folders, (f) => [...(edges.get(f) ?? [])])).toEqual([])
})
