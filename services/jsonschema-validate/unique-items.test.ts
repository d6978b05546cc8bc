/**
 * The linear uniqueItems (services/_lib/data-format-ajv.ts) against ajv's own pairwise keyword, an independent
 * implementation: the same verdict and the same (i, j) on random arrays with repeated, reordered and nested items.
 */
import { expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020'
import { newAjv } from '../_lib/data-format-ajv'

test('same verdict and indexes as ajv pairwise uniqueItems', () => {
  let seed = 7
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed % n
  }
  const pool: unknown[] = [0, -0, 1, 1.5, '1', 'a', true, false, null, [], {}, [1, 2], [2, 1], { a: 1, b: [1] }]
  const value = (): unknown => {
    const v = pool[rnd(pool.length)]
    // the same object with its keys in the other order
    return v && typeof v === 'object' && !Array.isArray(v) && rnd(2)
      ? Object.fromEntries(Object.entries(v).reverse())
      : v
  }
  const ours = newAjv().compile({ uniqueItems: true })
  const theirs = new Ajv2020({ allErrors: true, strict: false }).compile({ uniqueItems: true })
  for (let k = 0; k < 2_000; k++) {
    const data = Array.from({ length: rnd(12) }, value)
    const a = ours(data)
    const b = theirs(data)
    expect({ data, valid: a, params: ours.errors?.[0]?.params }).toEqual({
      data,
      valid: b,
      params: theirs.errors?.[0]?.params,
    })
  }
})
