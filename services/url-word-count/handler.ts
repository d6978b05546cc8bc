import { handlerFor, ServiceError } from '../../runtime/sdk'
import {
  collapse,
  countWords,
  DEFAULT_WPM,
  extractArticle,
  fetchOk,
  HTML_TYPES,
  htmlDocument,
  htmlToPlain,
  requireUrl,
  tidy,
} from '../_lib/web-page'
import manifest from './manifest'

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' })

export function textCounts(text: string, wpm: number) {
  const flat = text.replace(/\s+/g, ' ').trim()
  const words = countWords(text)
  let sentences = 0
  for (const s of SENTENCES.segment(text)) if (/[\p{L}\p{N}]/u.test(s.segment)) sentences++
  const seconds = Math.round((words / wpm) * 60)
  return {
    word_count: words,
    character_count: [...flat].length,
    character_count_no_spaces: [...flat.replace(/\s/g, '')].length,
    sentence_count: sentences,
    paragraph_count: text.split(/\n\s*\n/).filter((p) => p.trim()).length,
    words_per_minute: wpm,
    reading_time_minutes: Math.ceil(words / wpm),
    reading_time_seconds: seconds,
  }
}

export default handlerFor(manifest, async ({ url, scope = 'main', words_per_minute = DEFAULT_WPM }, ctx) => {
  const target = requireUrl('url', url)
  const page = await fetchOk(ctx, target, { accept: [...HTML_TYPES, 'text/plain'], maxBytes: 3 * 1024 * 1024 })
  let title: string | null = null
  let text: string
  let extraction: 'readability' | 'body' | 'full' | 'plain-text'
  if (page.contentType === 'text/plain') {
    text = tidy(page.text())
    extraction = 'plain-text'
  } else if (scope === 'full') {
    const html = page.text()
    const doc = htmlDocument(html)
    title = collapse(doc.querySelector('title')?.textContent) || null
    text = htmlToPlain(doc.body?.innerHTML ?? html)
    extraction = 'full'
  } else {
    const a = extractArticle(page.text(), page.url)
    title = a.title
    text = a.text
    extraction = a.extraction
  }
  if (!countWords(text))
    throw new ServiceError(
      422,
      'NO_READABLE_CONTENT',
      'the page has no words to count (it may need JavaScript to render)',
      { details: { url: page.url } },
    )
  return { url: target, final_url: page.url, title, scope, extraction, ...textCounts(text, words_per_minute) }
})
