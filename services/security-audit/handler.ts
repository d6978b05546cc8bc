import { tieredAnalysis } from '../_lib/analysis'
import manifest from './manifest'
import { prompts } from './prompts'
import { Audit, renderAudit, validateAudit } from './report'

export default tieredAnalysis<typeof manifest, Audit>(manifest, {
  prompts,
  labels: { context: 'Application context', code: 'Code to audit' },
  structured: { schema: Audit, validate: validateAudit, render: renderAudit },
})
