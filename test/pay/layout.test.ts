/**
 * The payments layout (runtime/pay/README.md), read from the import statements themselves: the resource server
 * (server/) names no scheme, each scheme is a folder of pay/schemes/ that imports no other, the server's contract
 * (server/doors.ts) imports types only and nothing of a scheme, the facilitators never reach into the server or a
 * scheme, the pipeline enters payments only through the paid call's doors, and runtime/pay has no value import circle.
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
const schemes = readdirSync(join(PAY, 'schemes'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
const schemeOf = (f: string) => schemes.find((s) => inPay(f, `schemes/${s}`))
const edgesOut = (pred: (from: string, to: string, typeOnly: boolean) => boolean) =>
  payFiles.flatMap((f) =>
    graph
      .get(f)!
      .filter((e) => pred(f, e.to, e.typeOnly))
      .map((e) => `${rel(f)} -> ${rel(e.to)}`),
  )

test('the import reader sees what the paid call and the schemes import (the checks below are not vacuous)', () => {
  const edges = (f: string) => graph.get(join(PAY, f))!
  expect(edges('server/paid-call.ts').map((e) => `${rel(e.to)}${e.typeOnly ? ' (type)' : ''}`)).toEqual(
    expect.arrayContaining(['pay/server/schemes.ts', 'pay/server/challenge.ts', 'pay/server/doors.ts (type)']),
  )
  expect(
    edges('schemes/exact/scheme.ts')
      .filter((e) => !e.typeOnly)
      .map((e) => rel(e.to)),
  ).toEqual(expect.arrayContaining(['pay/schemes/exact/gate.ts', 'pay/schemes/exact/settle-kept.ts', 'pay/wire.ts']))
  expect(schemes).toEqual(expect.arrayContaining(['exact', 'batch-settlement']))
  expect(payFiles.filter((f) => inPay(f, 'server')).length).toBeGreaterThan(8)
  expect(payFiles.filter((f) => inPay(f, 'facilitator')).length).toBeGreaterThan(10)
})

test('runtime/pay keeps at most 10 files at its top level: the shared protocol, and the README', () => {
  const top = readdirSync(PAY, { withFileTypes: true }).filter((e) => e.isFile())
  expect(top.length).toBeLessThanOrEqual(10)
  expect(shared.map(rel)).toEqual(expect.arrayContaining(['pay/types.ts', 'pay/reasons.ts', 'pay/wire.ts']))
})

test('the resource server names no scheme: server/ imports nothing of pay/schemes/, not even a type', () => {
  expect(edgesOut((f, to) => inPay(f, 'server') && inPay(to, 'schemes'))).toEqual([])
})

test('each scheme is a folder of its own: no scheme imports another', () => {
  expect(edgesOut((f, to) => Boolean(schemeOf(f) && schemeOf(to) && schemeOf(f) !== schemeOf(to)))).toEqual([])
})

test("the server's contract (server/doors.ts) imports types only, none of them a scheme's", () => {
  const doors = graph.get(join(PAY, 'server/doors.ts'))!
  expect(doors.length).toBeGreaterThan(3)
  expect(doors.filter((e) => !e.typeOnly || inPay(e.to, 'schemes')).map((e) => rel(e.to))).toEqual([])
})

test('the shared protocol files import no role and no scheme; the facilitators nothing of the server or a scheme', () => {
  expect(
    edgesOut(
      (f, to) =>
        (shared.includes(f) && (inPay(to, 'server') || inPay(to, 'facilitator') || inPay(to, 'schemes'))) ||
        (inPay(f, 'facilitator') && (inPay(to, 'server') || inPay(to, 'schemes'))),
    ),
  ).toEqual([])
})

test('the pipeline and the streamed answer enter payments only through the paid call (pipeline -> admit -> handler -> finish)', () => {
  for (const entry of ['call/pipeline.ts', 'call/stream/paid.ts']) {
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
