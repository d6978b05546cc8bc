import { handlerFor, invalid } from '../../runtime/sdk'
import { assertDepth } from '../_lib/data-format-json'
import { diff, type Op } from './lib'
import manifest from './manifest'

export default handlerFor(manifest, ({ a, b }) => {
  if (a === undefined) throw invalid('a', 'is required (any JSON value, null included)')
  if (b === undefined) throw invalid('b', 'is required (any JSON value, null included)')
  assertDepth(a, 'a')
  assertDepth(b, 'b')
  const patch: Op[] = []
  diff(a, b, '', patch)
  const count = (op: Op['op']) => patch.filter((p) => p.op === op).length
  return { equal: patch.length === 0, patch, added: count('add'), removed: count('remove'), replaced: count('replace') }
})
