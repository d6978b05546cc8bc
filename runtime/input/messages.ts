/**
 * Field issues that say what to send, translated from TypeBox's errors: an enum lists its allowed values and the
 * nearest match, a number out of range gives the range, a union names the shapes it accepts. TypeBox's own union
 * message ("Expected union value") never reaches the client.
 */
import { ValueErrorType, type ValueError, type ValueErrorIterator } from '@sinclair/typebox/errors'
import type { FieldIssue } from '../sdk/errors'
import { literalsOf } from './normalize'
import { nearest } from './enum-match'

type Schema = Record<string, unknown>
const MAX_LISTED = 120

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing'
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 40 ? `${s.slice(0, 37)}...` : s
}
const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`

/** "between 1 and 12", "at least 0", "greater than 0 and at most 1", or '' without bounds. */
export function rangeText(s: Schema): string {
  const lo =
    s.exclusiveMinimum !== undefined
      ? `greater than ${s.exclusiveMinimum}`
      : s.minimum !== undefined
        ? `at least ${s.minimum}`
        : ''
  const hi =
    s.exclusiveMaximum !== undefined
      ? `less than ${s.exclusiveMaximum}`
      : s.maximum !== undefined
        ? `at most ${s.maximum}`
        : ''
  if (s.minimum !== undefined && s.maximum !== undefined) return `between ${s.minimum} and ${s.maximum}`
  return [lo, hi].filter(Boolean).join(' and ')
}

/** A short noun phrase for what a schema accepts. */
export function describe(s: Schema): string {
  const lits = literalsOf(s)
  if (lits.length && !(Array.isArray(s.anyOf) && (s.anyOf as Schema[]).some((b) => !literalsOf(b).length)))
    return `one of ${listed(lits)}`
  if (Array.isArray(s.anyOf) && (s.anyOf as Schema[]).every((b) => b.const !== undefined))
    return `one of ${(s.anyOf as Schema[]).map((b) => JSON.stringify(b.const)).join(', ')}`
  if (Array.isArray(s.anyOf)) {
    const parts = (s.anyOf as Schema[]).filter((b) => !literalsOf(b).length).map(describe)
    if (lits.length) parts.unshift(`one of ${listed(lits)}`)
    return [...new Set(parts)].join(', or ')
  }
  if (s.const !== undefined) return JSON.stringify(s.const)
  const range = rangeText(s)
  switch (s.type) {
    case 'integer':
      return `an integer${range ? ` ${range}` : ''}`
    case 'number':
      return `a number${range ? ` ${range}` : ''}`
    case 'string':
      return s.maxLength !== undefined ? `a string of at most ${s.maxLength} characters` : 'a string'
    case 'boolean':
      return 'true or false'
    case 'array':
      return 'an array'
    case 'object':
      return 'an object'
    case 'null':
      return 'null'
  }
  return 'a valid value'
}

const listed = (values: string[]) =>
  values.length > MAX_LISTED
    ? `${values.slice(0, MAX_LISTED).join(', ')}, ... (${values.length} values)`
    : values.join(', ')

/** Value aliases per field name; the field being reported is the last segment of its path ("did you mean"). */
type ValueAliases = Record<string, Record<string, string>>

function enumMessage(lits: string[], got: unknown, others: string[], path: string, valueAliases: ValueAliases): string {
  const aliases = valueAliases[path.split('/').pop() ?? ''] ?? {}
  let guess = typeof got === 'string' ? nearest(got, [...lits, ...Object.keys(aliases)]) : undefined
  if (guess !== undefined && !lits.includes(guess)) guess = aliases[guess]
  const also = others.length ? `, or ${others.join(', or ')}` : ''
  return `must be one of ${listed(lits)}${also} (got ${show(got)})${guess ? `; did you mean ${guess}?` : ''}`
}

const jsType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
const branchMatches = (b: Schema, v: unknown) => {
  const t = jsType(v)
  return b.type === t || (t === 'number' && b.type === 'integer')
}

function fromUnion(e: ValueError, va: ValueAliases): FieldIssue[] {
  const s = e.schema as Schema
  const branches = (s.anyOf as Schema[]) ?? []
  const lits = literalsOf(s)
  const others = branches.filter((b) => !literalsOf(b).length)
  if (lits.length && (typeof e.value === 'string' || !others.some((b) => branchMatches(b, e.value)))) {
    return [{ path: e.path || '/', message: enumMessage(lits, e.value, others.map(describe), e.path, va) }]
  }
  // The value has the JS type of one branch: report that branch's own problems (e.g. a bad field inside an object).
  const i = branches.findIndex((b) => !literalsOf(b).length && branchMatches(b, e.value))
  if (i >= 0 && e.errors[i]) {
    const inner = translate(e.errors[i] as ValueErrorIterator, va)
    if (inner.length) return inner
  }
  return [{ path: e.path || '/', message: `must be ${describe(s)} (got ${kindOf(e.value)})` }]
}

function one(e: ValueError, va: ValueAliases): FieldIssue[] {
  const s = e.schema as Schema
  const path = e.path || '/'
  const T = ValueErrorType
  switch (e.type) {
    case T.Union:
      return fromUnion(e, va)
    case T.Literal:
      return [{ path, message: enumMessage(literalsOf(s), e.value, [], e.path, va) }]
    case T.ObjectRequiredProperty:
      return [{ path, message: `is required: ${describe(s)}` }]
    case T.NumberMinimum:
    case T.NumberMaximum:
    case T.NumberExclusiveMinimum:
    case T.NumberExclusiveMaximum:
    case T.IntegerMinimum:
    case T.IntegerMaximum:
    case T.IntegerExclusiveMinimum:
    case T.IntegerExclusiveMaximum:
      return [{ path, message: `must be ${rangeText(s)} (got ${show(e.value)})` }]
    case T.Number:
    case T.Integer:
    case T.String:
    case T.Boolean:
    case T.Array:
    case T.Object:
    case T.Null:
      return [{ path, message: `must be ${describe(s)} (got ${kindOf(e.value)})` }]
    case T.StringPattern:
    case T.StringFormat: {
      const what = e.type === T.StringPattern ? `the pattern ${s.pattern}` : `the format ${s.format}`
      const hint =
        typeof s.description === 'string' && s.description.length <= 160 ? ` (${s.description.replace(/\.$/, '')})` : ''
      return [{ path, message: `must match ${what}${hint} (got ${show(e.value)})` }]
    }
    case T.StringMaxLength:
      return [
        {
          path,
          message: `must be at most ${s.maxLength} character${s.maxLength === 1 ? '' : 's'} (got ${(e.value as string).length})`,
        },
      ]
    case T.StringMinLength:
      return [{ path, message: s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters` }]
    case T.ArrayMaxItems:
      return [{ path, message: `must have at most ${s.maxItems} items (got ${(e.value as unknown[]).length})` }]
    case T.ArrayMinItems:
      return [{ path, message: `must have at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}` }]
    case T.ObjectMaxProperties:
      return [{ path, message: `must have at most ${s.maxProperties} fields` }]
    case T.ObjectMinProperties:
      return [{ path, message: `must have at least ${s.minProperties} field${s.minProperties === 1 ? '' : 's'}` }]
  }
  return [{ path, message: e.message }]
}

/** At most this many field issues are reported for one body. */
export const MAX_ISSUES = 20

/** Translated issues, one per path (the first, most specific problem of each field); `valueAliases` feed "did you mean". */
export function translate(errors: Iterable<ValueError>, valueAliases: ValueAliases = {}): FieldIssue[] {
  const out: FieldIssue[] = []
  const seen = new Set<string>()
  for (const e of errors) {
    for (const i of one(e, valueAliases)) {
      if (seen.has(i.path)) continue
      seen.add(i.path)
      out.push(i)
    }
    if (out.length >= MAX_ISSUES) break
  }
  return out.slice(0, MAX_ISSUES)
}
