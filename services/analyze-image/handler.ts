import { checkBudget, tieredAnalysis } from '../_lib/analysis'
import { fetchImage } from '../_lib/fetch-media'
import { dataBlock } from '../_lib/model-utility'
import manifest from './manifest'
import { prompts } from './prompts'

export default tieredAnalysis(manifest, {
  prompts,
  async prepare(input, ctx) {
    checkBudget(ctx, input.context?.length ?? 0, 'context', '/context')
    const image = await fetchImage(ctx, input.code)
    return {
      user: dataBlock([
        ['Image', `attached (${image.mediaType}, ${image.data.byteLength} bytes)`],
        ['Language of the answer', input.language],
        ['Question or focus', input.context],
      ]),
      images: [{ mediaType: image.mediaType, data: image.data }],
    }
  },
})
