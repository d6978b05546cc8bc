/**
 * The payments layout (runtime/pay/README.md), read from the import statements themselves: the resource server
 * (server/) and the facilitators (facilitator/) stand on the shared protocol files, the facilitators never reach
 * into the server, the pipeline enters payments only through the paid call's two doors, the top level stays small,
 * and runtime/pay has no import circle other than type-only ones.
 */
import { expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { circles, importsOf, rel, RUNTIME, tsFiles } from '../support/imports'

const PAY = join(RUNTIME, 'pay')
const payFiles = tsFiles(PAY)
const graph = new Map(payFiles.map((f) => [f, importsOf(f)]))
const inPay = (f: string, dir = '') => f.startsWith(join(PAY, dir) + (dir ? '/' : ''))
const shared = payFiles.filter((f) => !rel(f).slice('pay/'.length).includes('/'))

test('the import reader sees what the paid call imports, value and type-only (the checks below are not vacuous)', () => {
  const edges = (f: string) => graph.get(join(PAY, f))!
  expect(edges('server/paid-call.ts').map((e) => `${rel(e.to)}${e.typeOnly ? ' (type)' : ''}`)).toEqual(
    expect.arrayContaining(['pay/schemes/exact/scheme.ts', 'pay/server/challenge.ts', 'pay/server/doors.ts (type)']),
  )
  expect(
    edges('server/exact.ts')
      .filter((e) => !e.typeOnly)
      .map((e) => rel(e.to)),
  ).toEqual(expect.arrayContaining(['pay/schemes/exact/gate.ts', 'pay/schemes/exact/settle-kept.ts', 'pay/wire.ts']))
  expect(payFiles.filter((f) => inPay(f, 'server')).length).toBeGreaterThan(10)
  expect(payFiles.filter((f) => inPay(f, 'facilitator')).length).toBeGreaterThan(10)
})

test('runtime/pay keeps at most 10 files at its top level: the shared protocol, and the README', () => {
  const top = readdirSync(PAY, { withFileTypes: true }).filter((e) => e.isFile())
  expect(top.length).toBeLessThanOrEqual(10)
  expect(shared.map(rel)).toEqual(expect.arrayContaining(['pay/types.ts', 'pay/reasons.ts', 'pay/wire.ts']))
})

test('the shared protocol files import neither role; the facilitators import nothing of the resource server', () => {
  const offenders = payFiles.flatMap((f) =>
    graph
      .get(f)!
      .filter(
        (e) =>
          (shared.includes(f) && (inPay(e.to, 'server') || inPay(e.to, 'facilitator'))) ||
          (inPay(f, 'facilitator') && inPay(e.to, 'server')),
      )
      .map((e) => `${rel(f)} -> ${rel(e.to)}`),
  )
  expect(offenders).toEqual([])
})

test('the pipeline and the streamed answer enter payments only through the paid call (pipeline -> admit -> handler -> finish)', () => {
  for (const entry of ['pipeline.ts', 'stream/paid.ts']) {
    const into = importsOf(join(RUNTIME, entry)).filter((e) => inPay(e.to))
    expect(into.map((e) => rel(e.to))).toEqual(['pay/server/paid-call.ts'])
  }
})

test('runtime/pay has no import circle (type-only imports are erased, so not followed)', () => {
  const valueEdges = (f: string) =>
    graph
      .get(f)!
      .filter((e) => !e.typeOnly)
      .map((e) => e.to)
  expect(circles(payFiles, valueEdges)).toEqual([])
})

test('runtime/ has no value import circle either (type-only ones aside)', () => {
  const all = tsFiles(RUNTIME)
  const edges = new Map(all.map((f) => [f, importsOf(f)]))
  const found = circles(all, (f) =>
    edges
      .get(f)!
      .filter((e) => !e.typeOnly)
      .map((e) => e.to),
  )
  expect(found).toEqual([])
})
