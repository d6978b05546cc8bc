/**
 * Parsing and validating a model's JSON answer against a JSON Schema (plain objects or TypeBox schemas).
 * @module model/json
 */
import Ajv, { type ValidateFunction } from 'ajv'

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false })
const compiled = new WeakMap<object, ValidateFunction>()

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let v = compiled.get(schema)
  if (!v) {
    v = ajv.compile(JSON.parse(JSON.stringify(schema)))
    compiled.set(schema, v)
  }
  return v
}

/** Removes a Markdown code fence around the whole answer (```json ... ```), which many models add. */
export function stripFence(text: string): string {
  const m = /^\s*```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)\n?\s*```\s*$/.exec(text)
  return (m ? m[1]! : text).trim()
}

export type Checked = { ok: true; value: unknown } | { ok: false; reason: string }

/**
 * Parses `text` as JSON and validates it against `schema`, then runs the optional extra check.
 * The extra check may be async (a handler in a worker checks there: runtime/isolate).
 * @example await checkJson('{"a":1}', { type: 'object', required: ['a'] }) // { ok: true, value: { a: 1 } }
 */
export async function checkJson(
  text: string,
  schema: Record<string, unknown>,
  extra?: (v: unknown) => string | undefined | Promise<string | undefined>,
): Promise<Checked> {
  let value: unknown
  try {
    value = JSON.parse(stripFence(text))
  } catch (e) {
    return { ok: false, reason: `the answer is not valid JSON (${(e as Error).message.slice(0, 120)})` }
  }
  const v = validatorFor(schema)
  if (!v(value)) {
    const errs = (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    return { ok: false, reason: `the JSON does not match the schema: ${errs.join('; ')}` }
  }
  if (extra) {
    let why: string | undefined
    try {
      why = await extra(value)
    } catch (e) {
      why = `rejected: ${(e as Error).message}`
    }
    if (why) return { ok: false, reason: why.slice(0, 500) }
  }
  return { ok: true, value }
}
