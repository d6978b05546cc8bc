import { tieredAnalysis } from '../_lib/analysis'
import manifest from './manifest'
import { prompts } from './prompts'

export default tieredAnalysis(manifest, {
  prompts,
  labels: { context: 'Error message or stack trace', code: 'Failing code' },
})
