import { handlerFor, t } from '../../runtime/sdk'
import { askJson, dataBlock } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You are a professional translator. Translate the text in the data block into the target language. Keep meaning, tone, ' +
  'register, line breaks, Markdown, code, URLs and placeholders such as {name} or %s unchanged. Do not add notes. Report the ' +
  'source language and the target language as English names.'

const Answer = t.Object({ translation: t.String(), source_language: t.String(), target_language: t.String() })

export default handlerFor(manifest, async ({ text, to, from }, ctx) => {
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Target language', to],
      ['Source language', from],
      ['Text', text],
    ]),
    schema: Answer,
    maxTokens: 8192,
  })
  return { ...r.value, model: r.model, tokens_used: r.tokens_used }
})
