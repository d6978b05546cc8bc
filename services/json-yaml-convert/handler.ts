import { handlerFor } from '../../runtime/sdk'
import { nodeType, parseJsonTree, readJson, writeJson, type JNode } from '../_lib/data-format-json'
import { parseYaml, writeYaml } from '../_lib/data-format-yaml'
import manifest from './manifest'

export default handlerFor(manifest, ({ input, from = 'auto', to, indent = 2, compact = false, sort_keys = false }) => {
  let source: 'json' | 'yaml' = from === 'auto' ? 'yaml' : from
  let node: JNode
  const asJson = from === 'auto' ? readJson(input) : undefined
  if (asJson?.ok) {
    source = 'json'
    node = asJson.node
  } else node = source === 'json' ? parseJsonTree(input, 'input').node : parseYaml(input, 'input').node
  const target = to ?? (source === 'json' ? 'yaml' : 'json')
  const output =
    target === 'yaml' ? writeYaml(node, indent, sort_keys) : writeJson(node, compact ? null : indent, sort_keys)
  return { output, from: source, to: target, top_level_type: nodeType(node) }
})
