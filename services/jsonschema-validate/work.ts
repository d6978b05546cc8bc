/**
 * Bounds the work of one validation before ajv runs it. ajv tries every branch of anyOf/oneOf/not/if/contains on
 * every value they reach, and with allErrors keeps an error object for each failed try; a small schema can so make
 * a large instance cost minutes and gigabytes (`items: {anyOf: [1,000 branches]}`, or a $ref that branches at each
 * level: 2^depth). This walk applies the schema to the instance the way ajv dispatches it (properties by key,
 * items by index, $ref followed, every branch tried) and only counts: past MAX_TRIED branch applications or
 * MAX_APPLIED applications in all, the call is refused, so the count itself stays bounded too.
 */
import { RE2JS } from 're2js'
import { invalid } from '../../runtime/sdk'

/** Most schema applications inside anyOf/oneOf/not/if/contains branches (each may build an error object). */
export const MAX_TRIED = 300_000
/** Most schema applications in all. */
export const MAX_APPLIED = 3_000_000

type Schema = Record<string, unknown> | boolean
const isSchema = (s: unknown): s is Schema =>
  typeof s === 'boolean' || (s !== null && typeof s === 'object' && !Array.isArray(s))
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Local $ref targets: JSON pointers from the root, `$id` and `$anchor` values (with or without their base). */
function resolver(root: Schema) {
  const named = new Map<string, Schema>()
  const stack: unknown[] = [root]
  while (stack.length) {
    const s = stack.pop()
    if (Array.isArray(s)) stack.push(...s)
    else if (isObj(s)) {
      for (const k of ['$id', 'id', '$anchor', '$dynamicAnchor', '$recursiveAnchor']) {
        const v = s[k]
        if (typeof v !== 'string') continue
        named.set(v, s)
        named.set(k === '$id' || k === 'id' ? v.replace(/#$/, '') : `#${v}`, s)
      }
      for (const v of Object.values(s)) if (v !== null && typeof v === 'object') stack.push(v)
    }
  }
  return (ref: string): Schema | undefined => {
    const hit = named.get(ref) ?? named.get(ref.replace(/#$/, ''))
    if (hit) return hit
    const hash = ref.indexOf('#')
    const base = hash < 0 ? ref : ref.slice(0, hash)
    let cur: unknown = base === '' ? root : named.get(base)
    if (cur === undefined) return undefined
    const ptr = hash < 0 ? '' : ref.slice(hash + 1)
    if (ptr && !ptr.startsWith('/')) return named.get(`#${ptr}`)
    for (const p of ptr.split('/').slice(1)) {
      const key = decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~')
      cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined
    }
    return isSchema(cur) ? cur : undefined
  }
}

/** What one schema object applies, read once: in-place subschemas (plain and tried), and what descends. */
interface Plan {
  inPlace: unknown[]
  tried: unknown[]
  prefix: unknown[]
  rest: unknown
  contains: unknown
  unevaluatedItems: unknown
  dependents: Array<[string, unknown]>
  properties: Record<string, unknown>
  patterns: Array<[string, unknown]>
  additional: unknown
  unevaluatedProperties: unknown
  names: unknown
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function planOf(s: Record<string, unknown>, resolve: (ref: string) => Schema | undefined): Plan {
  const refs = ['$ref', '$dynamicRef', '$recursiveRef'].flatMap((k) =>
    typeof s[k] === 'string' ? [resolve(s[k] as string)] : [],
  )
  const deps = isObj(s.dependentSchemas) ? s.dependentSchemas : isObj(s.dependencies) ? s.dependencies : {}
  return {
    inPlace: [...refs, ...list(s.allOf), s.then, s.else],
    tried: [...list(s.anyOf), ...list(s.oneOf), s.not, s.if],
    prefix: Array.isArray(s.prefixItems) ? s.prefixItems : list(s.items),
    rest: Array.isArray(s.items) ? s.additionalItems : s.items,
    contains: s.contains,
    unevaluatedItems: s.unevaluatedItems,
    dependents: Object.entries(deps),
    properties: isObj(s.properties) ? s.properties : {},
    patterns: isObj(s.patternProperties) ? Object.entries(s.patternProperties) : [],
    additional: s.additionalProperties,
    unevaluatedProperties: s.unevaluatedProperties,
    names: s.propertyNames,
  }
}

/** Throws a 422 when validating `instance` against `schema` would exceed the bounds above. */
export function checkWork(schema: Schema, instance: unknown): void {
  const refs = new Map<string, Schema | undefined>()
  const lookup = resolver(schema)
  const resolve = (ref: string) => {
    if (!refs.has(ref)) refs.set(ref, lookup(ref))
    return refs.get(ref)
  }
  const plans = new Map<object, Plan>()
  const patterns = new Map<string, RE2JS | null>()
  const matches = (p: string, k: string) => {
    let re = patterns.get(p)
    if (re === undefined) {
      try {
        re = RE2JS.compile(p)
      } catch {
        re = null
      }
      patterns.set(p, re)
    }
    return re === null || re.test(k)
  }
  let applied = 0
  let tried = 0
  const spend = (branch: boolean) => {
    if (++applied > MAX_APPLIED || (branch && ++tried > MAX_TRIED))
      throw invalid(
        'schema',
        `validating this instance would apply more than ${branch ? `${MAX_TRIED} subschemas in anyOf/oneOf/not/if/contains branches` : `${MAX_APPLIED} subschemas and patterns`} (every branch is tried on every value it reaches); simplify the schema or validate a smaller instance`,
      )
  }
  const apply = (s: unknown, v: unknown, branch: boolean): void => {
    if (!isSchema(s)) return
    spend(branch)
    if (typeof s === 'boolean') return
    let p = plans.get(s)
    if (!p) plans.set(s, (p = planOf(s, resolve)))
    for (const x of p.inPlace) apply(x, v, branch)
    for (const x of p.tried) apply(x, v, true)
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        apply(i < p.prefix.length ? p.prefix[i] : p.rest, v[i], branch)
        apply(p.contains, v[i], true)
        apply(p.unevaluatedItems, v[i], branch)
      }
    } else if (isObj(v)) {
      for (const [k, x] of p.dependents) if (Object.hasOwn(v, k)) apply(x, v, branch)
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue
        const x = v[k]
        let named = Object.hasOwn(p.properties, k)
        if (named) apply(p.properties[k], x, branch)
        for (const [re, ps] of p.patterns) {
          spend(branch)
          if (!matches(re, k)) continue
          named = true
          apply(ps, x, branch)
        }
        if (!named) apply(p.additional, x, branch)
        apply(p.unevaluatedProperties, x, branch)
        apply(p.names, k, branch)
      }
    }
  }
  try {
    apply(schema, instance, false)
  } catch (e) {
    if (e instanceof RangeError)
      throw invalid('schema', 'its $ref recursion never consumes the instance (infinite loop)')
    throw e
  }
}
