/**
 * Ajv for draft 2020-12 with ajv-formats, shared by jsonschema-validate and json-schema-infer. Schema `pattern`
 * and `patternProperties` run on re2js (linear time, no catastrophic backtracking); RE2 has no lookaround or
 * backreferences, so such patterns are refused as invalid schemas. A fresh instance per request keeps user
 * schemas out of any shared cache.
 */
import type Ajv from 'ajv'
import type { SchemaValidateFunction } from 'ajv/dist/types'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { fullFormats } from 'ajv-formats/dist/formats'
import { RE2JS } from 're2js'
import { canonicalJson } from './data-format-json'

export const re2Engine = Object.assign(
  (pattern: string, flags: string) => {
    const re = RE2JS.compile(pattern)
    // Ajv keys compiled patterns by toString(): it must differ per pattern.
    return { test: (s: string) => re.test(s), toString: () => `/${pattern}/${flags}` }
  },
  { code: 're2js' },
)

export function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: true,
    ownProperties: true,
    code: { regExp: re2Engine },
  })
  addFormats(ajv)
  return linearUniqueItems(ajv)
}

const f64 = new Float64Array(1)
const u32 = new Uint32Array(f64.buffer)

/**
 * A 52-bit hash of a JSON value that equal JSON values share (object keys in any order, 0 and -0 alike), without
 * building any string. Seeded per call, so a request cannot be crafted to make its items collide.
 */
function jsonHash(v: unknown, seed: number): number {
  let a = seed | 0
  let b = (seed ^ 0x5bd1e995) | 0
  const mix = (x: number) => {
    a = Math.imul(a ^ x, 0x01000193)
    b = Math.imul(b ^ x, 0x5bd1e995) ^ (b >>> 15)
  }
  const text = (s: string) => {
    mix(s.length)
    for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i))
  }
  const walk = (x: unknown): void => {
    if (x === null || x === undefined) mix(1)
    else if (typeof x === 'boolean') mix(x ? 2 : 3)
    else if (typeof x === 'number') {
      mix(4)
      f64[0] = x === 0 ? 0 : x
      mix(u32[0])
      mix(u32[1])
    } else if (typeof x === 'string') {
      mix(5)
      text(x)
    } else if (Array.isArray(x)) {
      mix(6)
      mix(x.length)
      for (const y of x) walk(y)
    } else {
      mix(7)
      const keys = Object.keys(x as object).sort()
      mix(keys.length)
      for (const k of keys) {
        text(k)
        walk((x as Record<string, unknown>)[k])
      }
    }
  }
  walk(v)
  return (a >>> 0) * 0x100000 + (b >>> 12)
}

/**
 * Replaces ajv's `uniqueItems`, which compares every pair of object or array items (120,000 items took minutes),
 * by one pass that buckets the items by a hash of their JSON value; items of one bucket are compared by their
 * canonical JSON (keys sorted: the same equality as ajv's deep-equal on JSON values). The error is ajv's: `i` is
 * the highest index that repeats an earlier item, `j` the nearest such earlier index.
 */
export function linearUniqueItems<T extends Ajv>(ajv: T): T {
  ajv.removeKeyword('uniqueItems')
  const check: SchemaValidateFunction = Object.assign(
    (unique: boolean, data: unknown[]): boolean => {
      if (!unique) return true
      const seed = (Math.random() * 0x7fffffff) | 0
      // hash → the latest index with it; only hashes shared by different values keep a list (few allocations)
      const latest = new Map<number, number>()
      const shared = new Map<number, number[]>()
      const canon = new Map<number, string>()
      const canonOf = (i: number) => {
        let c = canon.get(i)
        if (c === undefined) canon.set(i, (c = canonicalJson(data[i])))
        return c
      }
      let dup: { i: number; j: number } | undefined
      for (let i = 0; i < data.length; i++) {
        const h = jsonHash(data[i], seed)
        const last = latest.get(h)
        latest.set(h, i)
        if (last === undefined) continue
        const earlier = shared.get(h) ?? [last]
        const j = earlier.findLast((k) => canonOf(k) === canonOf(i))
        if (j !== undefined) dup = { i, j }
        if (j === undefined || earlier.length > 1) {
          // a different value with the same hash: keep them all (j found: this one now stands for both)
          if (j !== undefined) earlier.splice(earlier.indexOf(j), 1)
          earlier.push(i)
          shared.set(h, earlier)
        }
      }
      if (!dup) return true
      check.errors = [
        {
          keyword: 'uniqueItems',
          message: `must NOT have duplicate items (items ## ${dup.j} and ${dup.i} are identical)`,
          params: dup,
        },
      ]
      return false
    },
    { errors: undefined },
  )
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate: check })
  return ajv
}

type FormatCheck = RegExp | ((s: string) => boolean) | { validate: RegExp | ((s: string) => boolean) }

/** Whether `s` satisfies ajv-formats' (full mode) check of `format`. */
export function matchesFormat(format: string, s: string): boolean {
  const f = (fullFormats as Record<string, FormatCheck>)[format]
  const check = f && typeof f === 'object' && 'validate' in f ? f.validate : f
  if (check instanceof RegExp) return check.test(s)
  return typeof check === 'function' ? check(s) : false
}
