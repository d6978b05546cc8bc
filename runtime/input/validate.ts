import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { ServiceError, type FieldIssue } from '../sdk/errors'
import { aliasesOf, canonicalize } from './normalize'
import { translate } from './messages'
import { nearest } from './enum-match'
import { isSynonym } from './synonyms'

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

const withDefaults = new WeakMap<TSchema, boolean>()
/**
 * Whether a schema declares a default anywhere (a `default` key in its JSON; a field named "default" also counts,
 * which only keeps the walk): Value.Default walks the whole schema on every call, and most services declare none.
 */
function hasDefaults(schema: TSchema): boolean {
  let d = withDefaults.get(schema)
  if (d === undefined) {
    try {
      d = JSON.stringify(schema).includes('"default"')
    } catch {
      d = true
    }
    withDefaults.set(schema, d)
  }
  return d
}

/** Field issues of `value` against `schema` (empty when valid), each saying what to send. */
export function issues(schema: TSchema, value: unknown): FieldIssue[] {
  const c = checker(schema)
  if (c.Check(value)) return []
  return translate(c.Errors(value), aliasesOf(schema).values)
}

/**
 * Canonicalises `body` (field and value aliases, enum spelling; see input/normalize.ts), applies the schema's
 * defaults to a copy and validates it. Returns the input and the top-level fields the service does not use.
 * Throws a 422 INVALID_INPUT naming every failing field and what it accepts (never the schema itself).
 */
export function prepareInputReport(
  schema: TSchema,
  body: unknown,
  /** `body` is the caller's own, freshly parsed: canonicalised in place, not copied first (a paid call's body). */
  fresh = false,
): { input: unknown; ignored: string[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError(422, 'INVALID_INPUT', 'The body must be a JSON object.', {
      details: [{ path: '/', message: 'expected a JSON object' }],
    })
  }
  const own = (fresh ? body : structuredClone(body)) as Record<string, unknown>
  const { input: canonical, ignored } = canonicalize(schema, own)
  const input = hasDefaults(schema) ? Value.Default(schema, canonical) : canonical
  const found = issues(schema, input).map((i) => withUnusedHint(i, ignored))
  if (found.length) {
    const names = [...new Set(found.map((i) => i.path))].join(', ')
    throw new ServiceError(422, 'INVALID_INPUT', `Invalid input at ${names}: ${found[0].message}`, { details: found })
  }
  return { input, ignored }
}

/**
 * Whether prepareInputReport would accept `body`, cheaply, for the check before payment: `body` is the caller's own
 * (freshly parsed: it is canonicalised in place, not copied), and a canonical body that passes the compiled check
 * needs no defaults (they only fill absent fields, with valid values). False means "not sure": the caller then goes
 * the whole way, whose 422 says what to send.
 */
export function passesAsIs(schema: TSchema, body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false
  return checker(schema).Check(canonicalize(schema, body as Record<string, unknown>).input)
}

/**
 * A missing top-level field that an unused field of the body looks like (a near spelling, or a word agents use for it:
 * `apr` for `rate`) gets "you sent x; did you mean rate?".
 */
function withUnusedHint(issue: FieldIssue, ignored: string[]): FieldIssue {
  const field = issue.path.slice(1)
  if (!ignored.length || !issue.message.startsWith('is required') || field.includes('/')) return issue
  const sent = ignored.find((k) => nearest(k, [field]) === field) ?? ignored.find((k) => isSynonym(k, field))
  return sent === undefined
    ? issue
    : { ...issue, message: `${issue.message} (you sent ${JSON.stringify(sent)}; did you mean ${field}?)` }
}

/** prepareInputReport without the ignored-field list. */
export function prepareInput(schema: TSchema, body: unknown): unknown {
  return prepareInputReport(schema, body).input
}
