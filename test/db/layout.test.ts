/**
 * The storage layout (runtime/db/README.md), read from the import statements themselves (type-only ones included):
 * the contract (store.ts) and the shared helpers import no engine, neither engine imports the other, open.ts alone
 * picks an engine, the rest of the runtime sees the contract only, and runtime/db has no import circle.
 */
import { expect, test } from 'bun:test'
import { dirname, join } from 'node:path'
import { circles, importsOf as edgesOf, rel, RUNTIME, tsFiles } from '../support/imports'

const DB = join(RUNTIME, 'db')
const importsOf = (file: string) => edgesOf(file).map((e) => e.to)
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
  expect(circles(dbFiles, (f) => graph.get(f) ?? [])).toEqual([])
})
