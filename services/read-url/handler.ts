import { handlerFor, ServiceError } from '../../runtime/sdk'
import {
  countWords,
  DEFAULT_WPM,
  extractArticle,
  fetchOk,
  HTML_TYPES,
  requireUrl,
  tidy,
  toMarkdown,
} from '../_lib/web-page'
import manifest from './manifest'

export const MAX_PAGE_BYTES = 3 * 1024 * 1024

export default handlerFor(manifest, async ({ code }, ctx) => {
  const url = requireUrl('code', code)
  const page = await fetchOk(ctx, url, { accept: [...HTML_TYPES, 'text/plain'], maxBytes: MAX_PAGE_BYTES })
  const base = { url, final_url: page.url, content_type: page.contentType }
  if (page.contentType === 'text/plain') {
    const text = tidy(page.text())
    if (!text) throw new ServiceError(422, 'NO_READABLE_CONTENT', 'the page is empty', { details: { url: page.url } })
    const words = countWords(text)
    return {
      ...base,
      title: null,
      byline: null,
      site_name: null,
      excerpt: null,
      lang: null,
      published_time: null,
      extraction: 'plain-text' as const,
      text,
      markdown: text,
      word_count: words,
      reading_time_minutes: Math.ceil(words / DEFAULT_WPM),
    }
  }
  const a = extractArticle(page.text(), page.url)
  if (!a.text)
    throw new ServiceError(
      422,
      'NO_READABLE_CONTENT',
      'the page has no readable text (it may need JavaScript to render)',
      { details: { url: page.url } },
    )
  const words = countWords(a.text)
  return {
    ...base,
    title: a.title,
    byline: a.byline,
    site_name: a.siteName,
    excerpt: a.excerpt,
    lang: a.lang,
    published_time: a.publishedTime,
    extraction: a.extraction,
    text: a.text,
    markdown: toMarkdown(a.html),
    word_count: words,
    reading_time_minutes: Math.ceil(words / DEFAULT_WPM),
  }
})
