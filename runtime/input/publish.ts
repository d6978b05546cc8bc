/**
 * Aliases in the published input schema (/services, OpenAPI, Bazaar): the root keeps `x-aliases` as declared, and
 * each affected property gets a sentence in its description (plus `x-field-aliases` for field names), so an agent reading only one field
 * sees its other accepted names and values. Also checks, at boot, that every alias points at something real.
 */
import type { TSchema } from '@sinclair/typebox'
import { aliasesOf, literalsOf } from './normalize'
import { enumKey } from './enum-match'

type Schema = Record<string, unknown>
const isObj = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The note on how enum values are matched, published at the schema root. */
export const ENUM_MATCHING =
  'Enum values match case-insensitively, and -, _ and spaces are treated alike (e.g. "Percent-Of" = "percent_of").'

/** Enum literals per property name, anywhere in the schema (nested objects, arrays, records). */
export function enumsByField(
  schema: Schema,
  prop?: string,
  out = new Map<string, Set<string>>(),
  depth = 0,
): Map<string, Set<string>> {
  if (depth > 16 || !isObj(schema)) return out
  const lits = literalsOf(schema)
  if (prop && lits.length) {
    const set = out.get(prop) ?? new Set<string>()
    for (const l of lits) set.add(l)
    out.set(prop, set)
  }
  for (const b of (schema.anyOf as Schema[] | undefined) ?? []) enumsByField(b, prop, out, depth + 1)
  for (const [k, s] of Object.entries((schema.properties as Record<string, Schema>) ?? {}))
    enumsByField(s, k, out, depth + 1)
  for (const s of Object.values((schema.patternProperties as Record<string, Schema>) ?? {}))
    enumsByField(s, prop, out, depth + 1)
  if (isObj(schema.items)) enumsByField(schema.items, prop, out, depth + 1)
  return out
}

/** The object schema at a field-alias path ("debts[]", "fields.*"), looking through unions; undefined if none. */
export function objectAt(schema: Schema, path: string): Schema | undefined {
  const unwrap = (s: Schema | undefined, want: (x: Schema) => boolean): Schema | undefined =>
    !s ? undefined : want(s) ? s : ((s.anyOf as Schema[] | undefined) ?? []).find(want)
  let cur: Schema | undefined = schema
  for (const seg of path ? path.split('.') : []) {
    if (seg === '*')
      cur = Object.values(
        (unwrap(cur, (x) => isObj(x.patternProperties))?.patternProperties as Record<string, Schema>) ?? {},
      )[0]
    else {
      const name = seg.endsWith('[]') ? seg.slice(0, -2) : seg
      cur = (unwrap(cur, (x) => isObj(x.properties))?.properties as Record<string, Schema> | undefined)?.[name]
      if (seg.endsWith('[]')) cur = unwrap(cur, (x) => isObj(x.items))?.items as Schema | undefined
    }
  }
  return unwrap(cur, (x) => isObj(x.properties))
}

/** Problems with a schema's declared aliases (an alias of an unknown field, or of a value that is not a literal). */
export function aliasProblems(schema: TSchema): string[] {
  const { fields = {}, values = {} } = aliasesOf(schema)
  const out: string[] = []
  if (!Object.keys(fields).length && !Object.keys(values).length) return out // most services declare none
  const enums = enumsByField(schema as Schema)
  for (const [key, canonical] of Object.entries(fields)) {
    const dot = key.lastIndexOf('.')
    const alias = key.slice(dot + 1)
    const at = dot < 0 ? (schema as Schema) : objectAt(schema as Schema, key.slice(0, dot))
    const names = Object.keys((at?.properties as object) ?? {})
    if (!at) out.push(`field alias '${key}': no object at '${key.slice(0, dot)}'`)
    else if (!names.includes(canonical))
      out.push(
        `field alias '${key}' points at '${canonical}', which is not ${dot < 0 ? 'a top-level input field' : `a field at ${key.slice(0, dot)}`}`,
      )
    if (names.includes(alias)) out.push(`field alias '${key}' is itself an input field`)
  }
  for (const [field, map] of Object.entries(values)) {
    const lits = enums.get(field)
    if (!lits) {
      out.push(`value aliases for '${field}', which is not an enum field`)
      continue
    }
    const keys = new Set([...lits].map(enumKey))
    for (const [alias, canonical] of Object.entries(map)) {
      if (!lits.has(canonical))
        out.push(`value alias '${alias}' of ${field} points at '${canonical}', which is not one of its values`)
      if (keys.has(enumKey(alias)))
        out.push(
          `value alias '${alias}' of ${field} is already one of its values (enum values match case-insensitively)`,
        )
    }
  }
  return out
}

/** Value aliases spelled out in a field's description when there are at most this many. */
const MAX_INLINE = 12

/** Adds the alias notes to a published (JSON) copy of an input schema, in place. */
export function publishAliases(published: Schema): void {
  const aliases = aliasesOf(published as TSchema)
  published['x-enum-matching'] = ENUM_MATCHING
  const props = (published.properties as Record<string, Schema> | undefined) ?? {}
  const note = (p: Schema | undefined, text: string, key: string, value: unknown) => {
    if (!p) return
    p[key] = value
    p.description = `${p.description ? `${p.description} ` : ''}${text}`
  }
  const byCanonical = new Map<string, string[]>()
  for (const [alias, canonical] of Object.entries(aliases.fields ?? {}))
    if (!alias.includes('.')) byCanonical.set(canonical, [...(byCanonical.get(canonical) ?? []), alias])
  for (const [canonical, names] of byCanonical)
    note(
      props[canonical],
      `Also accepted as ${names.map((n) => `\`${n}\``).join(', ')} (this name wins when both are sent).`,
      'x-field-aliases',
      names,
    )
  // Value aliases are listed once, in the root x-aliases (the 402 header carries this schema: keep it small).
  for (const [field, map] of Object.entries(aliases.values ?? {})) {
    const pairs = Object.entries(map)
    const text =
      pairs.length <= MAX_INLINE
        ? pairs.map(([a, c]) => `"${a}" = ${c}`).join(', ')
        : `${pairs.length} other spellings, listed in x-aliases.values.${field}`
    if (props[field])
      props[field].description =
        `${props[field].description ? `${props[field].description} ` : ''}Also accepts ${text}.`
  }
}
