/**
 * Ajv for draft 2020-12 with ajv-formats, shared by jsonschema-validate and json-schema-infer. Schema `pattern`
 * and `patternProperties` run on re2js (linear time, no catastrophic backtracking); RE2 has no lookaround or
 * backreferences, so such patterns are refused as invalid schemas. A fresh instance per request keeps user
 * schemas out of any shared cache.
 */
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { fullFormats } from 'ajv-formats/dist/formats'
import { RE2JS } from 're2js'

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
