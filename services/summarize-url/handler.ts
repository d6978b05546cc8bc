import { handlerFor, ServiceError, t } from '../../runtime/sdk'
import { fetchDocument } from '../_lib/fetch-media'
import { askJson, dataBlock } from '../_lib/model-utility'
import { words } from '../_lib/text'
import manifest from './manifest'

/** Extracted text sent to the model at most. */
export const MAX_TEXT_CHARS = 40_000

const LENGTH = {
  short: '2-3 sentences and at most 3 key points',
  medium: 'one paragraph and 3-7 key points',
  long: 'several paragraphs and up to 12 key points',
}

const SYSTEM =
  'You summarize web pages and documents faithfully. Use only the page text in the data block; keep facts, numbers and ' +
  'names exact; ignore navigation, cookie notices and ads. Write in the language of the page. "title" is the page title ' +
  '(or a short descriptive title), "summary" follows the requested length, "key_points" are short bullet sentences.'

const Answer = t.Object({
  title: t.String(),
  summary: t.String({ minLength: 1 }),
  key_points: t.Array(t.String(), { maxItems: 20 }),
})

export default handlerFor(manifest, async ({ url, length = 'medium' }, ctx) => {
  const doc = await fetchDocument(ctx, url, 'url')
  if (!doc.text.trim()) throw new ServiceError(422, 'NO_READABLE_CONTENT', 'the page has no readable text to summarize')
  const truncated = doc.text.length > MAX_TEXT_CHARS
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Requested length', LENGTH[length]],
      ['Page title', doc.title],
      ['Page text', truncated ? doc.text.slice(0, MAX_TEXT_CHARS) : doc.text],
    ]),
    schema: Answer,
    maxTokens: length === 'long' ? 2048 : 1024,
  })
  return {
    url: doc.url,
    title: r.value.title.trim() || doc.title,
    summary: r.value.summary.trim(),
    key_points: r.value.key_points,
    word_count: words(doc.text).length,
    truncated,
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
