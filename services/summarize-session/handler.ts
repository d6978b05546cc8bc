import { tieredAnalysis } from '../_lib/analysis'
import manifest from './manifest'
import { prompts } from './prompts'

export default tieredAnalysis(manifest, {
  prompts,
  labels: { language: 'Language hint', context: 'Purpose of the summary', code: 'Session transcript' },
})
