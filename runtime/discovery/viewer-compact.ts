/**
 * The viewer's copy of the OpenAPI document made smaller without changing what the viewer shows (issue #38: Swagger
 * UI takes the whole document into its store and parses it before drawing the first tag, so its size is its cost):
 * - vendor extensions (`x-…` keys: `x-payment-info`, `x-field-aliases`, …) dropped: Swagger UI shows them only with
 *   `showExtensions`, which the page leaves off (the prices and aliases are also in the descriptions);
 * - a response object that several operations share (the 402, the 409 and 422 error bodies, …) written once in
 *   `components.responses` and referenced with `$ref` (likewise a shared response header, in `components.headers`);
 *   the viewer resolves them when an operation is opened.
 * Only the viewer's copy: /openapi.json and /openapi/full.json keep every extension and every response inline.
 */

/** Keys whose value is a map of names (a property named `x-…` is a name, not an extension). */
const NAMED = new Set(['properties', 'paths', 'responses', 'content', 'headers', 'schemas', 'encoding', 'callbacks'])
/** Keys whose value is data, copied as it is. */
const LITERAL = new Set(['example', 'examples', 'enum', 'default', 'value'])

function withoutExtensions(v: unknown, names = false): unknown {
  if (Array.isArray(v)) return v.map((x) => withoutExtensions(x))
  if (!v || typeof v !== 'object') return v
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v)) {
    if (names) out[k] = withoutExtensions(x)
    else if (k.startsWith('x-')) continue
    else out[k] = LITERAL.has(k) ? x : withoutExtensions(x, NAMED.has(k))
  }
  return out
}

type Operation = { responses?: Record<string, unknown> }
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> }

/**
 * Every object of the maps in `maps` (a response's headers, an operation's responses) found two or more times is
 * written once in `components[kind]`, named `<prefix><key>` (`Status402`, `Status422_2`, …), and each place refers to
 * it with `$ref`. The maps are changed in place; returns the shared objects.
 */
function share(maps: Record<string, unknown>[], kind: string, prefix: string) {
  const count = new Map<string, number>()
  for (const map of maps)
    for (const x of Object.values(map)) count.set(JSON.stringify(x), (count.get(JSON.stringify(x)) ?? 0) + 1)
  const names = new Map<string, string>()
  const shared: Record<string, unknown> = {}
  for (const map of maps)
    for (const [key, x] of Object.entries(map)) {
      const json = JSON.stringify(x)
      if ((count.get(json) ?? 0) < 2 || (x && typeof x === 'object' && '$ref' in x)) continue
      let name = names.get(json)
      if (!name) {
        const base = `${prefix}${key.replace(/[^A-Za-z0-9._-]/g, '_')}`
        name = base
        for (let i = 2; name in shared; i++) name = `${base}_${i}`
        names.set(json, name)
        shared[name] = x
      }
      map[key] = { $ref: `#/components/${kind}/${name}` }
    }
  return shared
}

/** Shared response headers, then shared responses, written once in `components.headers` / `components.responses`. */
function sharedResponses(doc: Document): Document {
  const operations = Object.values(doc.paths ?? {}).flatMap((item) =>
    Object.values(item).filter((op): op is Operation => !!op && typeof op === 'object' && !Array.isArray(op)),
  )
  const responseMaps = operations.flatMap((op) => (op.responses ? [op.responses] : []))
  const headerMaps = responseMaps.flatMap((rs) =>
    Object.values(rs).flatMap((r) => {
      const headers = (r as { headers?: Record<string, unknown> } | null)?.headers
      return headers && typeof headers === 'object' ? [headers] : []
    }),
  )
  const headers = share(headerMaps, 'headers', '')
  const responses = share(responseMaps, 'responses', 'Status')
  const components = (doc.components ?? {}) as Record<string, Record<string, unknown> | undefined>
  if (Object.keys(headers).length) components.headers = { ...components.headers, ...headers }
  if (Object.keys(responses).length) components.responses = { ...components.responses, ...responses }
  if (Object.keys(components).length) doc.components = components
  return doc
}

/** The viewer's copy of `doc` (already in OpenAPI 3.0's words): no extensions, shared responses written once. */
export function compactForViewer(doc: unknown): unknown {
  return sharedResponses(withoutExtensions(doc) as Document)
}
