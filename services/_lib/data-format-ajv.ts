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

/**
 * Replaces ajv's `uniqueItems`, which compares every pair of object or array items (120,000 items took minutes),
 * by one pass over the items' canonical JSON (keys sorted: the same equality as ajv's deep-equal on JSON values).
 * The error is ajv's: `i` is the highest index that repeats an earlier item, `j` the nearest such earlier index.
 */
export function linearUniqueItems<T extends Ajv>(ajv: T): T {
  ajv.removeKeyword('uniqueItems')
  const check: SchemaValidateFunction = Object.assign(
    (unique: boolean, data: unknown[]): boolean => {
      if (!unique) return true
      const last = new Map<string, number>()
      let dup: { i: number; j: number } | undefined
      data.forEach((x, i) => {
        const key = canonicalJson(x)
        const j = last.get(key)
        if (j !== undefined) dup = { i, j }
        last.set(key, i)
      })
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
