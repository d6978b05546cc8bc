import { handlerFor, ownError } from '../../runtime/sdk'
import { newAjv } from '../_lib/data-format-ajv'
import { assertDepth } from '../_lib/data-format-json'
import { infer } from './lib'
import manifest from './manifest'

export const SCHEMA_URI = 'https://json-schema.org/draft/2020-12/schema'

export default handlerFor(manifest, ({ samples, detect_formats = true, additional_properties = true, title }) => {
  assertDepth(samples, 'samples', 65)
  const body = infer(samples, { detectFormats: detect_formats, closed: !additional_properties })
  const schema: Record<string, unknown> = { $schema: SCHEMA_URI, ...(title ? { title } : {}), ...body }
  const validate = newAjv().compile(schema)
  const valid = samples.every((s) => validate(s))
  if (!valid)
    throw ownError(manifest, 'INFERENCE_FAILED', 'The inferred schema does not accept every sample.', {
      details: validate.errors,
    })
  return { schema, sample_count: samples.length, samples_valid: valid }
})
