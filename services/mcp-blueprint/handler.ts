import { invalid } from '../../runtime/sdk'
import { defaultPrepare, tieredAnalysis } from '../_lib/analysis'
import manifest from './manifest'
import { prompts } from './prompts'

const LANGS: Record<string, string> = { python: 'python', py: 'python', typescript: 'typescript', ts: 'typescript' }

export default tieredAnalysis(manifest, {
  prompts,
  prepare(input, ctx) {
    const hint = input.language?.trim().toLowerCase()
    const language = hint ? LANGS[hint] : 'typescript'
    if (!language) throw invalid('language', 'must be python or typescript')
    return defaultPrepare({ ...input, language }, ctx, {
      language: 'Implementation language',
      context: 'Target tools, transport and auth needs',
      code: 'System to expose',
    })
  },
})
