/**
 * The storage layout (runtime/db/README.md), read from the import statements themselves (type-only ones included):
 * the contract (store.ts) and the shared helpers import no engine, neither engine imports the other, open.ts alone
 * picks an engine, the rest of the runtime sees the contract only, and runtime/db has no import circle.
 */
import { expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

const RUNTIME = join(import.meta.dir, '../../runtime')
const DB = join(RUNTIME, 'db')

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

/** Static (`from '…'`, `import '…'`) and dynamic (`import('…')`) relative specifiers, resolved to files. */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  const specs = [...code.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1])
  return specs.map((s) => {
    const base = join(dirname(file), s)
    return [`${base}.ts`, join(base, 'index.ts'), base].find((p) => existsSync(p)) ?? base
  })
}

const rel = (f: string) => relative(RUNTIME, f)
const under = (f: string, dir: string) => f.startsWith(join(DB, dir) + '/')
const dbFiles = tsFiles(DB)
const graph = new Map(dbFiles.map((f) => [f, importsOf(f)]))

test('the import reader sees what open.ts imports (the checks below are not vacuous)', () => {
  expect(graph.get(join(DB, 'open.ts'))!.map(rel)).toEqual(
    expect.arrayContaining(['db/postgres/open.ts', 'db/sqlite/open.ts']),
  )
  expect(dbFiles.filter((f) => under(f, 'sqlite')).length).toBeGreaterThan(5)
  expect(dbFiles.filter((f) => under(f, 'postgres')).length).toBeGreaterThan(5)
})

test('neither engine imports the other', () => {
  const crossing = dbFiles.flatMap((f) =>
    graph
      .get(f)!
      .filter((to) => (under(f, 'sqlite') && under(to, 'postgres')) || (under(f, 'postgres') && under(to, 'sqlite')))
      .map((to) => `${rel(f)} -> ${rel(to)}`),
  )
  expect(crossing).toEqual([])
})

test('only open.ts picks an engine: the contract, the shared helpers and the rest of the runtime import neither', () => {
  const engineFile = (to: string) => under(to, 'sqlite') || under(to, 'postgres')
  const neutral = dbFiles.filter((f) => dirname(f) === DB && f !== join(DB, 'open.ts'))
  expect(neutral.map(rel)).toEqual(expect.arrayContaining(['db/store.ts', 'db/shared.ts', 'db/batched.ts']))
  const outside = tsFiles(RUNTIME).filter((f) => !f.startsWith(DB + '/'))
  const offenders = [...neutral, ...outside].flatMap((f) =>
    importsOf(f)
      .filter(engineFile)
      .map((to) => `${rel(f)} -> ${rel(to)}`),
  )
  expect(offenders).toEqual([])
})

test('runtime/db has no import circle (type-only imports included)', () => {
  const circles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (f: string, path: string[]) => {
    if (state.get(f) === 'done') return
    if (state.get(f) === 'open') {
      circles.push([...path.slice(path.indexOf(f)), f].map(rel).join(' -> '))
      return
    }
    state.set(f, 'open')
    for (const to of graph.get(f) ?? []) if (graph.has(to)) visit(to, [...path, f])
    state.set(f, 'done')
  }
  for (const f of dbFiles) visit(f, [])
  expect(circles).toEqual([])
})
