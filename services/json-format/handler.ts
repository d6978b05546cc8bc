import { handlerFor } from '../../runtime/sdk'
import { nodeType, parseJsonTree, treeDepth, utf8Bytes, writeJson } from '../_lib/data-format-json'
import manifest from './manifest'

export default handlerFor(manifest, ({ json, indent = 2, minify = false, sort_keys = false }) => {
  const { node, duplicates } = parseJsonTree(json, 'json')
  const formatted = writeJson(node, minify ? null : indent, sort_keys, 'json')
  const before = utf8Bytes(json)
  const after = utf8Bytes(formatted)
  return {
    valid: true,
    formatted,
    mode: minify ? ('minified' as const) : ('pretty' as const),
    top_level_type: nodeType(node),
    depth: treeDepth(node),
    duplicate_keys: duplicates,
    bytes_before: before,
    bytes_after: after,
    bytes_delta: after - before,
  }
})
