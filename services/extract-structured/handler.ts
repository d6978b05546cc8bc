import { handlerFor, invalid, t } from '../../runtime/sdk'
import { askJson, dataBlock, listOf } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You extract fields from text. For each requested field, return its value exactly as the text states it (normalized only ' +
  'as the field hint asks), or null when the text does not state it. Never guess. Use a list of strings only for fields that ' +
  'naturally hold several values. Return exactly the requested field names as keys, no others.'

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}$/
const Value = t.Union([t.String(), t.Number(), t.Boolean(), t.Null(), t.Array(t.String())])

export default handlerFor(manifest, async ({ text, fields }, ctx) => {
  const specs = listOf(fields).map((f) => {
    const at = f.indexOf(':')
    return {
      name: (at < 0 ? f : f.slice(0, at)).trim(),
      hint:
        at < 0
          ? ''
          : f
              .slice(at + 1)
              .trim()
              .slice(0, 200),
    }
  })
  if (!specs.length) throw invalid('fields', 'name at least one field')
  if (specs.length > 50) throw invalid('fields', 'at most 50 fields')
  for (const s of specs)
    if (!NAME.test(s.name))
      throw invalid(
        'fields',
        `"${s.name.slice(0, 70)}" is not a valid field name (letters, digits, space, _ - .; at most 64)`,
      )
  const names = [...new Set(specs.map((s) => s.name))]
  const schema = t.Object(Object.fromEntries(names.map((n) => [n, Value])), { additionalProperties: false })
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Fields to extract (name: hint)', specs.map((s) => (s.hint ? `${s.name}: ${s.hint}` : s.name)).join('\n')],
      ['Text', text],
    ]),
    schema,
    maxTokens: 2048,
  })
  const got = r.value as Record<string, unknown>
  const data = Object.fromEntries(names.map((n) => [n, got[n] ?? null])) as Record<
    string,
    string | number | boolean | null | string[]
  >
  return { data, missing: names.filter((n) => data[n] === null), model: r.model, tokens_used: r.tokens_used }
})
