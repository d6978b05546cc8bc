import { tieredAnalysis } from '../_lib/analysis'
import manifest from './manifest'
import { prompts } from './prompts'
import { Review, renderReview } from './report'

export default tieredAnalysis<typeof manifest, Review>(manifest, {
  prompts,
  labels: { context: 'Project context', code: 'Code to review' },
  structured: { schema: Review, render: renderReview },
})
