/** Draft selection and error shaping for jsonschema-validate. */
import Ajv from 'ajv'
import Ajv2019 from 'ajv/dist/2019'
import addFormats from 'ajv-formats'
import type { ErrorObject } from 'ajv'
import { linearUniqueItems, newAjv, re2Engine } from '../_lib/data-format-ajv'
import { pathStep } from '../_lib/data-format-json'
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json'

export type Draft = '2020-12' | '2019-09' | 'draft-07' | 'draft-06'

export function draftOf(schema: unknown): Draft {
  const uri = schema && typeof schema === 'object' ? (schema as Record<string, unknown>).$schema : undefined
  if (typeof uri !== 'string') return '2020-12'
  if (/draft-07/.test(uri)) return 'draft-07'
  if (/draft-06/.test(uri)) return 'draft-06'
  if (/2019-09/.test(uri)) return '2019-09'
  return '2020-12'
}

export function ajvFor(draft: Draft) {
  if (draft === '2020-12') return newAjv()
  const opts = {
    allErrors: true,
    strict: false,
    validateFormats: true,
    ownProperties: true,
    code: { regExp: re2Engine },
  } as const
  const ajv = draft === '2019-09' ? new Ajv2019(opts) : new Ajv(opts)
  if (draft === 'draft-06') ajv.addMetaSchema(draft06)
  addFormats(ajv)
  return linearUniqueItems(ajv)
}

/** JSONPath of a JSON Pointer, using the instance to tell array indexes from object keys. */
export function jsonPath(pointer: string, instance: unknown, extra?: string): string {
  const parts =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (extra !== undefined) parts.push(extra)
  let out = '$'
  let cur: unknown = instance
  for (const p of parts) {
    out += pathStep(Array.isArray(cur) && /^\d+$/.test(p) ? Number(p) : p)
    cur =
      cur !== null && typeof cur === 'object' && Object.hasOwn(cur, p) ? (cur as Record<string, unknown>)[p] : undefined
  }
  return out
}

/** The property an error is about, when the keyword names one. */
function named(e: ErrorObject): string | undefined {
  const p = e.params as Record<string, unknown>
  for (const k of ['missingProperty', 'additionalProperty', 'unevaluatedProperty'])
    if (typeof p[k] === 'string') return p[k] as string
  return undefined
}

export const shapeError = (e: ErrorObject, instance: unknown) => ({
  path: jsonPath(e.instancePath, instance, named(e)),
  instance_path: e.instancePath,
  keyword: e.keyword,
  message: e.message ?? e.keyword,
  schema_path: e.schemaPath,
  params: { ...(e.params as Record<string, unknown>) },
})
