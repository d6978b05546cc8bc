/**
 * The x402 Bazaar discovery extension of a service (`extensions.bazaar`, x402 extensions 2.27: `info` = an example
 * input and output, `schema` = a JSON Schema that validates `info`, its `properties.input.properties.body` being the
 * body's schema), in two sizes:
 * - **full** (`fullBazaar`, built at boot as `CatalogService.bazaar`): the body's whole published schema, with its
 *   descriptions, defaults and aliases. The Bazaar list (/discovery/resources, /discovery/search) and the 402's
 *   JSON body carry it.
 * - **header** (`headerBazaarForms`): the forms the 402's `PAYMENT-REQUIRED` header may carry, richest first. The
 *   challenge (runtime/pay/server/challenge.ts) takes the first one that keeps the header within its budget
 *   (docs/api.md, "The 402's size"): the schema without its annotations, then the fields with their types and
 *   enums, then their types, then their names; the example output whole, then its short top-level values, then `{}`.
 *   Every form is a valid extension (`info` validates against `schema`: only annotations and constraints are left
 *   out, so the example still matches), and keeps what readers look for: `schema.properties.input.properties.body`
 *   (the input schema @agentcash/discovery reads) and `schema.properties.output.properties.example`.
 * @module discovery/bazaar
 */
import type { CatalogService } from './index'

type Json = Record<string, unknown>

/**
 * The extension of an HTTP endpoint taking a JSON POST body, as x402's Bazaar defines it (what
 * `declareDiscoveryExtension({ method: 'POST', bodyType: 'json', ... })` of `@x402/extensions/bazaar` builds): `info`
 * an example call, `schema` the 2020-12 JSON Schema `info` validates against. Built here: the package's module loads
 * ajv and zod (~120 modules) at boot for this constant shape; `test/discovery/bazaar.test.ts` holds the two equal.
 */
function declared(body: Json, example: unknown, output: unknown): Json {
  const withOutput = Boolean(output)
  return {
    info: {
      input: { type: 'http', method: 'POST', bodyType: 'json', body: example },
      ...(withOutput ? { output: { type: 'json', example: output } } : {}),
    },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        input: {
          type: 'object',
          properties: {
            type: { type: 'string', const: 'http' },
            method: { type: 'string', enum: ['POST', 'PUT', 'PATCH'] },
            bodyType: { type: 'string', enum: ['json', 'form-data', 'text'] },
            body: body,
          },
          required: ['type', 'method', 'bodyType', 'body'],
          additionalProperties: false,
        },
        ...(withOutput
          ? {
              output: {
                type: 'object',
                properties: { type: { type: 'string' }, example: { type: 'object' } },
                required: ['type'],
              },
            }
          : {}),
      },
      required: ['input'],
    },
  }
}

/**
 * The full extension (under its `bazaar` key, as PaymentRequired.extensions spreads it). The output schema stays out:
 * it is published in OpenAPI and in the Bazaar list's `metadata.output` (some output schemas use tuple forms the
 * extension's 2020-12 validator refuses).
 */
export const fullBazaar = (inputSchema: Json, example?: { input: unknown; output?: unknown }): { bazaar: Json } => ({
  bazaar: declared(inputSchema, example?.input ?? {}, example?.output ?? {}),
})

/** Keywords that only annotate: no instance is refused for them, so leaving them out keeps every example valid. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'default', '$comment', 'readOnly'])
/** Keywords whose value is a map of names to schemas (the names are not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMA_VALUED = new Set(['items', 'prefixItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'])
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf'])

/** A union of constants (TypeBox's literal union) as the equivalent `enum`, with their common type. */
function asEnum(s: Json): Json | undefined {
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (!Array.isArray(branches) || !branches.every((b) => b && typeof b === 'object' && 'const' in b)) return undefined
  const types = new Set(branches.map((b) => b.type))
  return { ...(types.size === 1 && [...types][0] ? { type: [...types][0] } : {}), enum: branches.map((b) => b.const) }
}

/** The schema without annotations and vendor keywords (`x-*`): the same instances valid, fewer bytes. */
function withoutAnnotations(s: unknown): unknown {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return s
  const o = s as Json
  const e = asEnum(o)
  if (e) return e
  const out: Json = {}
  for (const [k, v] of Object.entries(o)) {
    if (ANNOTATIONS.has(k) || k.startsWith('x-')) continue
    if (SCHEMA_MAPS.has(k) && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, withoutAnnotations(sub)]))
    else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map(withoutAnnotations)
    else if (SCHEMA_VALUED.has(k)) out[k] = Array.isArray(v) ? v.map(withoutAnnotations) : withoutAnnotations(v)
    else out[k] = v
  }
  return out
}

/** One top-level field as its type (or types) and, with `enums`, its allowed values; `{}` when neither is simple. */
function fieldShape(s: Json, enums: boolean): Json {
  const e = asEnum(s) ?? (Array.isArray(s.enum) ? { ...(s.type ? { type: s.type } : {}), enum: s.enum } : undefined)
  if (e) return enums ? e : e.type ? { type: e.type } : {}
  if (typeof s.type === 'string' || Array.isArray(s.type)) return { type: s.type }
  const branches = s.anyOf as Json[] | undefined
  const types = Array.isArray(branches) ? branches.map((b) => b?.type) : []
  return types.length && types.every((t) => typeof t === 'string') ? { type: [...new Set(types)] } : {}
}

/**
 * The body's top-level fields only: with their types and enums (`fields`), their types (`types`), their names
 * (`names`), or none at all (`required`: the required names and the example input say what to send); with the body's
 * `required` (unless `required` is false) and its rule for extra fields.
 */
function fieldsOnly(s: Json, level: 'fields' | 'types' | 'names' | 'required', required = true): Json {
  const props = (s.properties ?? {}) as Record<string, Json>
  return {
    type: 'object',
    ...(level === 'required'
      ? {}
      : {
          properties: Object.fromEntries(
            Object.entries(props).map(([k, p]) => [
              k,
              level === 'names' ? {} : fieldShape(p ?? {}, level === 'fields'),
            ]),
          ),
        }),
    ...(required && Array.isArray(s.required) ? { required: s.required } : {}),
    ...(typeof s.additionalProperties === 'boolean' ? { additionalProperties: s.additionalProperties } : {}),
  }
}

/** The example output's top-level scalars (short strings, numbers, booleans, null): what the answer looks like. */
function shortOutput(example: unknown): Json {
  if (!example || typeof example !== 'object' || Array.isArray(example)) return {}
  return Object.fromEntries(
    Object.entries(example).filter(
      ([, v]) => v === null || ['number', 'boolean'].includes(typeof v) || (typeof v === 'string' && v.length <= 64),
    ),
  )
}

export interface HeaderForm {
  /** Under its `bazaar` key, as PaymentRequired.extensions spreads it. */
  extension: { bazaar: Json }
  /** Which body schema and example output it carries, e.g. `schema, output` (the richest) or `types, no output`. */
  form: string
}

const forms = new WeakMap<CatalogService, HeaderForm[]>()

/**
 * The header forms of a service's extension, richest first (built on first use, then kept). The body schema:
 * `schema` (without annotations), `fields` (top-level types and enums), `types`, `names`, `required` (the required
 * names only: the example input shows the fields); each with the example `output`, its `short output`, or `no
 * output`. Last, for an example input too large for a header (several networks' entries leave less room), an empty
 * example input with the field names (`names, no example`), then with none (`object, no example`): the schema then
 * requires no field, or `{}` would not validate.
 */
export function headerBazaarForms(svc: CatalogService): HeaderForm[] {
  let list = forms.get(svc)
  if (list) return list
  const schema = svc.inputJsonSchema
  const ex = svc.manifest.examples?.[0]
  const input = ex?.input ?? {}
  const outputs: Array<[unknown, string]> = [
    [ex?.output ?? {}, 'output'],
    [shortOutput(ex?.output), 'short output'],
    [{}, 'no output'],
  ]
  const schemas: Array<[Json, string]> = [
    [withoutAnnotations(schema) as Json, 'schema'],
    [fieldsOnly(schema, 'fields'), 'fields'],
    [fieldsOnly(schema, 'types'), 'types'],
    [fieldsOnly(schema, 'names'), 'names'],
    [fieldsOnly(schema, 'required'), 'required'],
  ]
  list = []
  const seen = new Set<string>()
  for (const [body, level] of schemas)
    for (const [output, less] of outputs) {
      const extension = { bazaar: declared(body, input, output) }
      const key = JSON.stringify(extension)
      if (!seen.has(key)) list.push({ extension, form: `${level}, ${less}` }), seen.add(key)
    }
  list.push({ extension: { bazaar: declared(fieldsOnly(schema, 'names', false), {}, {}) }, form: 'names, no example' })
  list.push({
    extension: { bazaar: declared(fieldsOnly(schema, 'required', false), {}, {}) },
    form: 'object, no example',
  })
  forms.set(svc, list)
  return list
}
