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

const IN_PLACE_TRIED = ['anyOf', 'oneOf'] as const
const REFS = ['$ref', '$dynamicRef', '$recursiveRef'] as const

/** Throws a 422 when validating `instance` against `schema` would exceed the bounds above. */
export function checkWork(schema: Schema, instance: unknown): void {
  const resolve = resolver(schema)
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
    for (const k of REFS) if (typeof s[k] === 'string') apply(resolve(s[k] as string), v, branch)
    if (Array.isArray(s.allOf)) for (const x of s.allOf) apply(x, v, branch)
    for (const k of IN_PLACE_TRIED) if (Array.isArray(s[k])) for (const x of s[k] as unknown[]) apply(x, v, true)
    for (const k of ['not', 'if']) apply(s[k], v, true)
    for (const k of ['then', 'else']) apply(s[k], v, branch)
    if (Array.isArray(v)) {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : []
      const rest = Array.isArray(s.items) ? s.additionalItems : s.items
      v.forEach((x, i) => {
        apply(i < prefix.length ? prefix[i] : rest, x, branch)
        apply(s.contains, x, true)
        apply(s.unevaluatedItems, x, branch)
      })
    } else if (isObj(v)) {
      const deps = isObj(s.dependentSchemas) ? s.dependentSchemas : isObj(s.dependencies) ? s.dependencies : {}
      for (const [k, x] of Object.entries(deps)) if (Object.hasOwn(v, k)) apply(x, v, branch)
      const props = isObj(s.properties) ? s.properties : {}
      const pats = isObj(s.patternProperties) ? Object.entries(s.patternProperties) : []
      for (const [k, x] of Object.entries(v)) {
        let named = Object.hasOwn(props, k)
        if (named) apply(props[k], x, branch)
        for (const [p, ps] of pats) {
          spend(branch)
          if (!matches(p, k)) continue
          named = true
          apply(ps, x, branch)
        }
        if (!named) apply(s.additionalProperties, x, branch)
        apply(s.unevaluatedProperties, x, branch)
        apply(s.propertyNames, k, branch)
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
