import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { ServiceError, type FieldIssue } from './sdk/errors'

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>()

/** The compiled checker for a schema, compiled once and cached (never per request). */
export function checker(schema: TSchema): TypeCheck<TSchema> {
  let c = compiled.get(schema)
  if (!c) {
    c = TypeCompiler.Compile(schema)
    compiled.set(schema, c)
  }
  return c
}

/** At most this many field issues are reported for one body. */
const MAX_ISSUES = 20

/** Field issues of `value` against `schema` (empty when valid). */
export function issues(schema: TSchema, value: unknown): FieldIssue[] {
  const c = checker(schema)
  if (c.Check(value)) return []
  const out: FieldIssue[] = []
  for (const e of c.Errors(value)) {
    out.push({ path: e.path || '/', message: e.message })
    if (out.length >= MAX_ISSUES) break
  }
  return out
}

/**
 * Applies the schema's defaults to a copy of `body` and validates it.
 * Throws a 422 INVALID_INPUT naming every failing field (never the schema itself).
 */
export function prepareInput(schema: TSchema, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError(422, 'INVALID_INPUT', 'The body must be a JSON object.', [{ path: '/', message: 'expected a JSON object' }])
  }
  const input = Value.Default(schema, structuredClone(body))
  const found = issues(schema, input)
  if (found.length) {
    const names = [...new Set(found.map((i) => i.path))].join(', ')
    throw new ServiceError(422, 'INVALID_INPUT', `Invalid input at ${names}: ${found[0].message}`, found)
  }
  return input
}
