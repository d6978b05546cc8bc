/**
 * Turns an agent's body into the canonical one before validation: field-name aliases are moved to their canonical
 * field, enum values are matched case-insensitively (`-`, `_`, spaces alike) or through declared value aliases and
 * replaced by the canonical literal, and top-level fields the service does not use are listed. Handlers therefore
 * only ever see canonical names and values. The plan of a schema is compiled once and cached.
 */
import type { TSchema } from '@sinclair/typebox'
import { ALIASES_KEY, type InputAliases } from '../sdk/manifest'
import { enumKey, MAX_ENUM_CHARS } from './enum-match'

type Fix = (v: unknown) => unknown
type Schema = Record<string, unknown>

interface Plan {
  fix: Fix | null
  /** Declared top-level properties. */
  known: Set<string>
  /** alias -> canonical top-level field. */
  fieldAliases: Map<string, string>
}

const plans = new WeakMap<TSchema, Plan>()
const MAX_DEPTH = 16

/** Only values with a letter or digit are matched loosely. */
const WORDY = /[\p{L}\p{N}]/u

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The aliases a schema carries (declared in the manifest, attached by defineService). */
export function aliasesOf(schema: TSchema): InputAliases {
  return ((schema as Schema)[ALIASES_KEY] as InputAliases | undefined) ?? {}
}

/** String literals of an enum-like schema (a Literal or a Union holding Literals), in order. */
export function literalsOf(schema: Schema): string[] {
  if (typeof schema.const === 'string') return [schema.const]
  if (Array.isArray(schema.enum)) return schema.enum.filter((x): x is string => typeof x === 'string')
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).flatMap((s) => literalsOf(s))
  return []
}

/** Writes back a canonical value: only when it changed, and never through the `__proto__` setter. */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  if (o[k] === v) return
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true })
}

function enumFix(literals: string[], aliases: Record<string, string> | undefined): Fix | null {
  if (!literals.length) return null
  const map = new Map<string, string | null>()
  const add = (key: string, canonical: string) => {
    const had = map.get(key)
    if (had === undefined) map.set(key, canonical)
    else if (had !== canonical) map.set(key, null) // two literals collide: only exact spellings match
  }
  // Punctuation-only literals (delimiters such as "," or "\t", bullet markers) match exactly, never loosely.
  for (const l of literals) if (WORDY.test(l)) add(enumKey(l), l)
  for (const [alias, canonical] of Object.entries(aliases ?? {}))
    if (!map.has(enumKey(alias))) map.set(enumKey(alias), canonical)
  const exact = new Set(literals)
  return (v) => {
    if (typeof v !== 'string' || exact.has(v) || v.length > MAX_ENUM_CHARS || !WORDY.test(v)) return v
    return map.get(enumKey(v)) ?? v
  }
}

/** What compile() needs besides the schema: the declared aliases and where it is in the body. */
interface Where {
  values: InputAliases['values']
  /** Nested field aliases by object path ("debts[]" -> { rate: 'apr' }); see InputAliases.fields. */
  nested: Map<string, Record<string, string>>
  /** Name of the nearest enclosing property (value aliases are keyed by it). */
  prop?: string
  /** Path of this schema in the body: "" at the top, "debts[]" for a debt, "fields.*" for a record value. */
  path: string
  depth: number
}

const child = (w: Where, prop: string | undefined, segment: string): Where => ({
  ...w,
  prop,
  path: w.path ? `${w.path}${segment.startsWith('[') ? '' : '.'}${segment}` : segment,
  depth: w.depth + 1,
})

/** Splits the manifest's field aliases into nested ones by object path ("debts[].rate" -> "debts[]": { rate }). */
export function nestedFieldAliases(fields: Record<string, string> = {}): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>()
  for (const [key, canonical] of Object.entries(fields)) {
    const dot = key.lastIndexOf('.')
    if (dot < 0) continue
    const at = key.slice(0, dot)
    out.set(at, { ...out.get(at), [key.slice(dot + 1)]: canonical })
  }
  return out
}

function compile(schema: Schema, w: Where): Fix | null {
  if (w.depth > MAX_DEPTH || !isObj(schema)) return null
  const own = enumFix(literalsOf(schema), w.prop ? w.values?.[w.prop] : undefined)
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as Schema[])
      .filter((b) => !literalsOf(b).length)
      .map((b) => compile(b, { ...w, depth: w.depth + 1 }))
      .filter((f): f is Fix => !!f)
    if (!own && !branches.length) return null
    return (v) => {
      if (typeof v === 'string') return own ? own(v) : v
      let out = v
      for (const f of branches) out = f(out)
      return out
    }
  }
  if (own) return own
  if (isObj(schema.properties)) {
    const fixes = Object.entries(schema.properties as Record<string, Schema>)
      .map(([k, s]) => [k, compile(s, child(w, k, k))] as const)
      .filter((x): x is readonly [string, Fix] => !!x[1])
    // Top-level aliases are applied by canonicalize(), which also reports the ones that lose.
    const renames = w.path ? Object.entries(w.nested.get(w.path) ?? {}) : []
    if (!fixes.length && !renames.length) return null
    return (v) => {
      if (!isObj(v)) return v
      for (const [alias, canonical] of renames) {
        if (Object.hasOwn(v, alias) && !Object.hasOwn(v, canonical)) {
          put(v, canonical, v[alias])
          delete v[alias]
        }
      }
      for (const [k, f] of fixes) if (Object.hasOwn(v, k)) put(v, k, f(v[k]))
      return v
    }
  }
  if (isObj(schema.patternProperties)) {
    const inner = Object.values(schema.patternProperties as Record<string, Schema>)
      .map((s) => compile(s, child(w, w.prop, '*')))
      .find(Boolean)
    if (!inner) return null
    return (v) => {
      if (isObj(v)) for (const k of Object.keys(v)) put(v, k, inner(v[k]))
      return v
    }
  }
  if (isObj(schema.items)) {
    const inner = compile(schema.items as Schema, child(w, w.prop, '[]'))
    if (!inner) return null
    return (v) => (Array.isArray(v) ? v.map(inner) : v)
  }
  return null
}

function planOf(schema: TSchema): Plan {
  let p = plans.get(schema)
  if (!p) {
    const aliases = aliasesOf(schema)
    p = {
      fix: compile(schema as Schema, {
        values: aliases.values,
        nested: nestedFieldAliases(aliases.fields),
        path: '',
        depth: 0,
      }),
      known: new Set(Object.keys(((schema as Schema).properties as object) ?? {})),
      fieldAliases: new Map(Object.entries(aliases.fields ?? {}).filter(([k]) => !k.includes('.'))),
    }
    plans.set(schema, p)
  }
  return p
}

/**
 * Canonicalises `body` (a fresh copy the caller owns; it is changed in place) and returns it with the top-level
 * fields that were not used: neither declared nor an applied alias. An alias whose canonical field was also sent
 * is not applied (the canonical field wins) and is reported as ignored.
 */
export function canonicalize(
  schema: TSchema,
  body: Record<string, unknown>,
): { input: Record<string, unknown>; ignored: string[] } {
  const plan = planOf(schema)
  const ignored: string[] = []
  for (const key of Object.keys(body)) {
    if (plan.known.has(key)) continue
    const canonical = plan.fieldAliases.get(key)
    if (canonical !== undefined && !Object.hasOwn(body, canonical)) {
      put(body, canonical, body[key])
      delete body[key]
    } else ignored.push(key)
  }
  const input = plan.fix ? (plan.fix(body) as Record<string, unknown>) : body
  return { input, ignored }
}
