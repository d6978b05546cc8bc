/**
 * Schema-driven hostile inputs: from a service's input JSON Schema and a valid base input, every mutation a
 * careless or hostile client could send (wrong types, nulls, missing fields, oversize strings and arrays, deep
 * nesting, odd Unicode, prototype keys, numbers at the edges).
 */
type Json = unknown
type Schema = {
  type?: string
  properties?: Record<string, Schema>
  required?: string[]
  maxLength?: number
  maxItems?: number
  items?: Schema
  anyOf?: Schema[]
  default?: unknown
  enum?: unknown[]
  const?: unknown
  minimum?: number
  maximum?: number
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a\u202eb',
  '👩‍👩‍👧‍👦'.repeat(50),
  'ａｂｃ',
  '\r\n\r\n',
  '%00%2e%2e/',
  '${7*7}{{7*7}}',
  "'; DROP TABLE x; --",
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '0x10',
]
const EDGE_NUMBERS = [0, -0, -1, 1e308, -1e308, 5e-324, 2 ** 53 + 1, -(2 ** 53) - 1, 0.1 + 0.2, 1e21, 3999.5]
const deep = (n: number): Json => (n === 0 ? 1 : [deep(n - 1)])
const deepObj = (n: number): Json => (n === 0 ? 1 : { a: deepObj(n - 1) })

/** A minimal valid value for a schema (defaults, enums, consts first). */
export function sample(s: Schema): Json {
  if (s.default !== undefined) return s.default
  if (s.const !== undefined) return s.const
  if (s.enum) return s.enum[0]
  if (s.anyOf) return sample(s.anyOf[0])
  switch (s.type) {
    case 'string':
      return 'hello'
    case 'number':
    case 'integer':
      return s.minimum ?? 1
    case 'boolean':
      return true
    case 'array':
      return s.items ? [sample(s.items)] : []
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {})
          .filter(([k]) => s.required?.includes(k))
          .map(([k, v]) => [k, sample(v)]),
      )
    default:
      return null
  }
}

export function* mutations(schema: Schema, base: Record<string, Json>): Generator<[string, Json]> {
  yield ['empty object', {}]
  yield ['array body', [base]]
  yield ['null body', null]
  yield ['string body', 'hello']
  yield ['extra fields', { ...base, zzz_extra: { nested: [1, 2, 3] } }]
  yield [
    '__proto__ key',
    JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(base).slice(1, -1) || '"x":1'}}`),
  ]
  yield ['constructor key', { ...base, constructor: { prototype: { polluted: true } } }]
  for (const [k, s] of Object.entries(schema.properties ?? {})) {
    const w = (v: Json) => ({ ...base, [k]: v })
    yield [`${k}: null`, w(null)]
    yield [`${k}: missing`, Object.fromEntries(Object.entries(base).filter(([x]) => x !== k))]
    yield [`${k}: wrong type (object)`, w({ a: 1 })]
    yield [`${k}: wrong type (array)`, w([1, 'a', null])]
    yield [`${k}: wrong type (bool)`, w(true)]
    yield [`${k}: deep array`, w(deep(200))]
    yield [`${k}: deep object`, w(deepObj(200))]
    if (s.type === 'string' || s.anyOf) {
      yield [`${k}: number`, w(42)]
      yield [`${k}: oversize`, w('A'.repeat(Math.min((s.maxLength ?? 100_000) + 1, 300_000)))]
      for (const odd of ODD_STRINGS) yield [`${k}: ${JSON.stringify(odd).slice(0, 20)}`, w(odd)]
    }
    if (s.type === 'number' || s.type === 'integer') {
      yield [`${k}: numeric string`, w('12')]
      for (const n of EDGE_NUMBERS) yield [`${k}: ${n}`, w(n)]
    }
    if (s.type === 'array') {
      yield [
        `${k}: oversize array`,
        w(Array.from({ length: Math.min((s.maxItems ?? 10_000) + 1, 200_000) }, () => (s.items ? sample(s.items) : 1))),
      ]
      yield [`${k}: array of nulls`, w([null, null])]
      yield [`${k}: array of edge numbers`, w(EDGE_NUMBERS)]
      yield [`${k}: array of odd strings`, w(ODD_STRINGS)]
    }
    if (s.type === 'object')
      yield [`${k}: huge object`, w(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])))]
  }
}
