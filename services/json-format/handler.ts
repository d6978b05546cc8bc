import { handlerFor } from '../../runtime/sdk'
import { nodeType, parseJsonTree, treeDepth, utf8Bytes, writeJson } from '../_lib/data-format-json'
import manifest from './manifest'

export default handlerFor(manifest, ({ json, indent = 2, minify = false, sort_keys = false }) => {
  const { node, duplicates } = parseJsonTree(json, 'json')
  // `indent: 0` asks for no whitespace: the minified form, as the spec reads it (not Python's one member per line).
  const compact = minify || indent === 0
  const formatted = writeJson(node, compact ? null : indent, sort_keys, 'json')
  const before = utf8Bytes(json)
  const after = utf8Bytes(formatted)
  return {
    valid: true,
    formatted,
    mode: compact ? ('minified' as const) : ('pretty' as const),
    top_level_type: nodeType(node),
    depth: treeDepth(node),
    duplicate_keys: duplicates,
    bytes_before: before,
    bytes_after: after,
    bytes_delta: after - before,
  }
})
