import { handlerFor, invalid } from '../../runtime/sdk'
import { assertDepth } from '../_lib/data-format-json'
import { ajvFor, draftOf, shapeError } from './lib'
import { checkWork } from './work'
import manifest from './manifest'

const MAX_SCHEMA_CHARS = 200_000

export default handlerFor(manifest, ({ schema, instance, max_errors = 100 }) => {
  if (instance === undefined) throw invalid('instance', 'is required (any JSON value, null included)')
  assertDepth(schema, 'schema')
  assertDepth(instance, 'instance')
  if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS)
    throw invalid('schema', `is larger than ${MAX_SCHEMA_CHARS} characters of JSON`)
  const draft = draftOf(schema)
  let validate
  try {
    validate = ajvFor(draft).compile(schema as object)
  } catch (e) {
    throw invalid('schema', `is not a valid JSON Schema (${draft}): ${(e as Error).message}`.slice(0, 1_000))
  }
  checkWork(schema, instance)
  let valid: boolean
  try {
    valid = validate(instance) as boolean
  } catch (e) {
    if (e instanceof RangeError)
      throw invalid('schema', 'its $ref recursion never consumes the instance (infinite loop)')
    throw e
  }
  const errors = valid ? [] : (validate.errors ?? [])
  return {
    valid,
    draft,
    error_count: errors.length,
    errors: errors.slice(0, max_errors).map((e) => shapeError(e, instance)),
  }
})
