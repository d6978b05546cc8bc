/**
 * The field lines of a service in /llms.txt: each input field with its type, whether it is required, its allowed
 * values and default, then the other names it is accepted under (the manifest's field aliases). An agent that reads
 * only /llms.txt can write a body from these lines.
 */
import type { CatalogService } from '../catalog/index'
import { describe } from '../input/messages'
import { aliasesOf, literalsOf } from '../input/normalize'

type Schema = Record<string, unknown>

/** Enums longer than this are shown by their first values and a count (the full list is in /services). */
const MAX_VALUES = 24

/** Bounds this far out are sanity limits, not information (±1e15 on a percentage): left out of the line. */
const HUGE = 1e9
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const

const trim = (b: Schema): Schema => {
  const c = { ...b }
  for (const k of BOUNDS) if (typeof c[k] === 'number' && Math.abs(c[k] as number) >= HUGE) delete c[k]
  if (Array.isArray(c.anyOf)) c.anyOf = (c.anyOf as Schema[]).map(trim)
  return c
}

/** `{name?, balance, apr}`: an object's field names, `?` on the optional ones (one level, for arrays and records). */
function shape(o: Schema): string {
  const req = new Set((o.required as string[] | undefined) ?? [])
  return `{${Object.keys((o.properties as Schema) ?? {})
    .map((k) => (req.has(k) ? k : `${k}?`))
    .join(', ')}}`
}
const isObj = (x: unknown): x is Schema => !!x && typeof x === 'object' && !Array.isArray(x)
const withFields = (x: unknown): boolean => isObj(x) && isObj(x.properties) && Object.keys(x.properties).length > 0

function what(schema: Schema): string {
  const s = trim(schema)
  // Arrays of objects and records of objects say what goes inside (the debts of a debt planner, the fields of a mock).
  if (s.type === 'array' && withFields(s.items)) return `array of ${shape(s.items as Schema)}`
  if (s.type === 'object' && isObj(s.patternProperties)) {
    const inner: Schema = Object.values(s.patternProperties as Record<string, Schema>)[0] ?? {}
    const obj = withFields(inner) ? inner : ((inner.anyOf as Schema[] | undefined) ?? []).find(withFields)
    if (obj) return `object of name → ${shape(obj)}${obj !== inner ? ' or a shorthand' : ''}`
  }
  const lits = literalsOf(s)
  if (lits.length > MAX_VALUES && !(Array.isArray(s.anyOf) && (s.anyOf as Schema[]).some((b) => !literalsOf(b).length)))
    return `one of ${lits.slice(0, MAX_VALUES).join(', ')}, ... (${lits.length} values, all in /services)`
  return describe(s).replace(/^an? /, '')
}

/** `name` (type; required | default x), one per input field. */
export function fieldList(s: CatalogService): string {
  const schema = s.inputJsonSchema
  const props = (schema.properties as Record<string, Schema> | undefined) ?? {}
  const required = new Set((schema.required as string[] | undefined) ?? [])
  return Object.entries(props)
    .map(([name, p]) => {
      const flags = required.has(name)
        ? 'required'
        : p.default !== undefined
          ? `default ${JSON.stringify(p.default)}`
          : 'optional'
      return `\`${name}\` (${what(p)}; ${flags})`
    })
    .join(', ')
}

/** `alias`→`field` for every declared field alias ("debts[].rate"→"apr" for nested ones), or '' without any. */
export function aliasList(s: CatalogService): string {
  const fields = aliasesOf(s.manifest.input).fields ?? {}
  return Object.entries(fields)
    .map(([alias, canonical]) => {
      const dot = alias.lastIndexOf('.')
      return `\`${alias}\`→\`${dot < 0 ? canonical : `${alias.slice(0, dot)}.${canonical}`}\``
    })
    .join(', ')
}

/** The description's "Differs from <other service>: ..." sentence (guidance between near twins), or ''. */
export function differsFrom(description: string): string {
  return description.replace(/\s+/g, ' ').match(/(?:^|[.!?] )(Differs from .+?[.!?])(?= |$)/)?.[1] ?? ''
}

/** The indented lines under a service's entry. */
export function fieldLines(s: CatalogService): string[] {
  const fields = fieldList(s)
  const aliases = aliasList(s)
  const differs = differsFrom(s.manifest.description)
  return [
    ...(differs ? [`  - ${differs}`] : []),
    ...(fields ? [`  - Fields: ${fields}`] : []),
    ...(aliases ? [`  - Also accepted: ${aliases}`] : []),
  ]
}
