/** Schema inference for json-schema-infer: every sample is folded into one accumulator, then written out. */
import { invalid } from '../../runtime/sdk'
import { matchesFormat } from '../_lib/data-format-ajv'

/**
 * Most properties (over all objects) an inferred schema may declare: ajv compiles one block of code per property
 * before checking the samples, which takes about a second per thousand (20,000 distinct keys: 12 s).
 */
export const MAX_PROPERTIES = 1_000

function countProperties(root: Acc): number {
  let n = 0
  const stack = [root]
  while (stack.length) {
    const a = stack.pop()!
    n += a.props.size
    for (const p of a.props.values()) stack.push(p.acc)
    if (a.items) stack.push(a.items)
  }
  return n
}

/** Formats tried on strings, most specific first. */
export const FORMATS = ['date-time', 'date', 'time', 'uuid', 'email', 'ipv4', 'ipv6', 'uri'] as const
const TYPE_ORDER = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']

interface Acc {
  types: Set<string>
  objects: number
  props: Map<string, { acc: Acc; seen: number }>
  items?: Acc
  formats?: Set<string>
}

const acc = (): Acc => ({ types: new Set(), objects: 0, props: new Map() })

export function fold(a: Acc, v: unknown, detectFormats: boolean): void {
  if (v === null) {
    a.types.add('null')
    return
  }
  if (Array.isArray(v)) {
    a.types.add('array')
    a.items ??= acc()
    for (const x of v) fold(a.items, x, detectFormats)
    return
  }
  switch (typeof v) {
    case 'object': {
      a.types.add('object')
      a.objects++
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        let p = a.props.get(k)
        if (!p) a.props.set(k, (p = { acc: acc(), seen: 0 }))
        p.seen++
        fold(p.acc, x, detectFormats)
      }
      return
    }
    case 'string': {
      a.types.add('string')
      if (detectFormats) {
        const ok = (a.formats ?? new Set(FORMATS)) as Set<string>
        for (const f of [...ok]) if (!matchesFormat(f, v as string)) ok.delete(f)
        a.formats = ok
      }
      return
    }
    case 'number':
      a.types.add(Number.isInteger(v) ? 'integer' : 'number')
      return
    case 'boolean':
      a.types.add('boolean')
      return
  }
}

export function emit(a: Acc, closed: boolean): Record<string, unknown> {
  const types = TYPE_ORDER.filter((t) => a.types.has(t) && !(t === 'integer' && a.types.has('number')))
  const s: Record<string, unknown> = {}
  if (types.length) s.type = types.length === 1 ? types[0] : types
  if (a.types.has('object')) {
    const props: Record<string, unknown> = {}
    const required: string[] = []
    for (const [k, p] of a.props) {
      Object.defineProperty(props, k, {
        value: emit(p.acc, closed),
        enumerable: true,
        writable: true,
        configurable: true,
      })
      if (p.seen === a.objects) required.push(k)
    }
    if (a.props.size) s.properties = props
    if (required.length) s.required = required
    if (closed) s.additionalProperties = false
  }
  if (a.items?.types.size) s.items = emit(a.items, closed)
  const format = a.formats && FORMATS.find((f) => a.formats!.has(f))
  if (format) s.format = format
  return s
}

export function infer(samples: unknown[], opts: { detectFormats: boolean; closed: boolean }): Record<string, unknown> {
  const root = acc()
  for (const x of samples) fold(root, x, opts.detectFormats)
  const props = countProperties(root)
  if (props > MAX_PROPERTIES)
    throw invalid(
      'samples',
      `hold ${props} distinct properties, more than the ${MAX_PROPERTIES} a schema is inferred for`,
    )
  return emit(root, opts.closed)
}
