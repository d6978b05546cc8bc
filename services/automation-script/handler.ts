import { tieredAnalysis } from '../_lib/analysis'
import manifest from './manifest'
import { prompts } from './prompts'

export default tieredAnalysis(manifest, {
  prompts,
  labels: { language: 'Target language', context: 'Extra requirements', code: 'Task description' },
})
