import { handlerFor } from '../../runtime/sdk'
import { fromJs, parseJsonValue, writeJson } from '../_lib/data-format-json'
import { jsonToXml, xmlToJson } from '../_lib/data-format-xml'
import manifest from './manifest'

export default handlerFor(
  manifest,
  ({ input, from = 'auto', to, parse_values = false, indent = 2, root_name = 'root', declaration = false }) => {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
    const source = from === 'auto' ? (text.trimStart().startsWith('<') ? 'xml' : 'json') : from
    const target = to ?? (source === 'xml' ? 'json' : 'xml')
    const value = source === 'xml' ? xmlToJson(text, 'input', parse_values) : parseJsonValue(text, 'input')
    if (target === 'json') {
      // Same text as JSON.stringify(value, null, indent), refused past the answer cap instead of built.
      const output = writeJson(fromJs(value), indent || null, false, 'input')
      return {
        output,
        from: source,
        to: target,
        ...(source === 'xml' ? { data: value as Record<string, unknown> } : {}),
      }
    }
    return { output: jsonToXml(value, 'input', { root: root_name, indent, declaration }), from: source, to: target }
  },
)
