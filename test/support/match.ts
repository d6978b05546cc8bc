import { expect } from 'bun:test'

/**
 * Asserts that `actual` contains `expected`: objects by the keys given, arrays element by element with equal
 * length, numbers within `tolerance`, everything else strictly equal. Fails with the path that differs.
 */
export function matchSubset(actual: unknown, expected: unknown, tolerance = 0, path = '$'): void {
  if (typeof expected === 'number' && typeof actual === 'number' && tolerance > 0) {
    if (Math.abs(actual - expected) > tolerance)
      throw new Error(`${path}: expected ${expected} ± ${tolerance}, got ${actual}`)
    return
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual))
      throw new Error(`${path}: expected an array, got ${JSON.stringify(actual)?.slice(0, 200)}`)
    if (actual.length !== expected.length)
      throw new Error(`${path}: expected ${expected.length} items, got ${actual.length}`)
    expected.forEach((e, i) => matchSubset(actual[i], e, tolerance, `${path}[${i}]`))
    return
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object')
      throw new Error(`${path}: expected an object, got ${JSON.stringify(actual)?.slice(0, 200)}`)
    for (const [k, v] of Object.entries(expected))
      matchSubset((actual as Record<string, unknown>)[k], v, tolerance, `${path}.${k}`)
    return
  }
  if (actual !== expected)
    throw new Error(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)?.slice(0, 200)}`)
  expect(actual).toBe(expected as never)
}
