import { expect, test } from 'bun:test'
import { assertFinite, ServiceError } from '../../runtime/sdk'
import { nonFinitePath } from '../../runtime/sdk/finite'

test('the one finiteness check: the JSON pointer of the first NaN/±Infinity, or null', () => {
  expect(nonFinitePath({ a: 1, b: [2, { c: 3 }], d: 'x', e: null })).toBeNull()
  expect(nonFinitePath(Number.NaN)).toBe('/')
  expect(nonFinitePath({ a: [1, 2, Number.POSITIVE_INFINITY] })).toBe('/a/2')
  expect(nonFinitePath({ rows: [{ v: 1 }, { v: -Infinity }] })).toBe('/rows/1/v')
  expect(nonFinitePath(1e308 * 10)).toBe('/')
})

test('assertFinite returns the answer unchanged or throws 422 RESULT_OUT_OF_RANGE naming the path', () => {
  const ok = { payment: 12.5 }
  expect(assertFinite(ok)).toBe(ok)
  let err: unknown
  try {
    assertFinite({ schedule: [{ balance: 0 }, { balance: Number.NaN }] })
  } catch (e) {
    err = e
  }
  expect(err).toBeInstanceOf(ServiceError)
  expect(err).toMatchObject({
    status: 422,
    code: 'RESULT_OUT_OF_RANGE',
    details: [{ path: '/schedule/1/balance', message: 'not a finite number' }],
  })
})

test('a body number beyond the double range is the same check on input: 422 INVALID_INPUT with its path', async () => {
  const { parseJson } = await import('../../runtime/http/body')
  let err: unknown
  try {
    parseJson('{"a": {"b": [1, 2e400]}}')
  } catch (e) {
    err = e
  }
  expect(err).toMatchObject({
    status: 422,
    code: 'INVALID_INPUT',
    details: [{ path: '/a/b/1', message: 'number out of range' }],
  })
})
