import { handlerFor } from '../../runtime/sdk'
import { checkCsv, checkJson, checkXml, checkYamlText, type Verdict } from './lib'
import manifest from './manifest'

export default handlerFor(manifest, ({ input, format, delimiter = 'auto' }) => {
  const v: Verdict =
    format === 'json'
      ? checkJson(input)
      : format === 'csv'
        ? checkCsv(input, delimiter)
        : format === 'xml'
          ? checkXml(input)
          : checkYamlText(input)
  if (v.valid) return { valid: true, format, error: null, normalized: v.normalized, stats: v.stats }
  return {
    valid: false,
    format,
    error: { message: v.error.message, line: v.error.line, column: v.error.column },
    normalized: null,
    stats: {},
  }
})
