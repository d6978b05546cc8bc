import { checkBudget, tieredAnalysis } from '../_lib/analysis'
import { fetchDocument, isHttpUrl } from '../_lib/fetch-media'
import { dataBlock } from '../_lib/model-utility'
import manifest from './manifest'
import { prompts } from './prompts'

export default tieredAnalysis(manifest, {
  prompts,
  async prepare(input, ctx) {
    checkBudget(ctx, input.code.length + (input.context?.length ?? 0))
    if (!isHttpUrl(input.code)) {
      return {
        user: dataBlock([
          ['Language hint', input.language],
          ['What to extract', input.context],
          ['Document text', input.code],
        ]),
      }
    }
    const doc = await fetchDocument(ctx, input.code)
    checkBudget(ctx, doc.text.length + (input.context?.length ?? 0), 'the fetched document text plus context')
    return {
      user: dataBlock([
        ['Document type', doc.contentType],
        ['Title', doc.title],
        ['Language hint', input.language],
        ['What to extract', input.context],
        ['Document text', doc.text || '(the document has no extractable text)'],
      ]),
    }
  },
})
