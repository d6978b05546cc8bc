/**
 * Shared by the web-reader services (read-url, url-metadata, extract-links, extract-emails, rss-parse,
 * url-word-count): one URL check, one fetch through `ctx.fetch` (the SSRF-safe fetcher), HTML parsing and
 * readability extraction.
 */
import { Readability } from '@mozilla/readability'
import { parseHTML } from 'linkedom'
import TurndownService from 'turndown'
import { invalid, upstreamError, type FetchedPage, type ServiceContext } from '../../runtime/sdk'

export const HTML_TYPES = ['text/html', 'application/xhtml+xml']
import { MAX_URL_CHARS } from './fields'
export { MAX_URL_CHARS, urlField } from './fields'

/** A required absolute http(s) URL, as its WHATWG href. */
export function requireUrl(field: string, s: string | undefined): string {
  if (typeof s !== 'string' || !s.trim()) throw invalid(field, 'is required (an absolute http or https URL)')
  const v = s.trim()
  if (v.length > MAX_URL_CHARS) throw invalid(field, `must be at most ${MAX_URL_CHARS} characters`)
  let u: URL
  try {
    u = new URL(v)
  } catch {
    throw invalid(field, 'must be an absolute http or https URL')
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw invalid(field, `scheme ${u.protocol} is not supported (http and https only)`)
  return u.href
}

/**
 * Fetches a page and insists on a 2xx answer: a 4xx/5xx from the target is a 502 naming the status (retryable for
 * 5xx, 429 and 408), never a 200 describing the error page.
 */
export async function fetchOk(
  ctx: ServiceContext,
  url: string,
  o: { accept?: string[]; maxBytes?: number; timeoutMs?: number } = {},
): Promise<FetchedPage> {
  const page = await ctx.fetch(url, { accept: o.accept, maxBytes: o.maxBytes, timeoutMs: o.timeoutMs })
  if (page.status < 200 || page.status >= 300) {
    throw upstreamError('target', `the page answered HTTP ${page.status}`, {
      retryable: page.status >= 500 || page.status === 429 || page.status === 408,
    })
  }
  return page
}

/** A linkedom document for an HTML string (a bare fragment gets an <html> wrapper so it keeps its text). */
export function htmlDocument(html: string): Document {
  const { document } = parseHTML(
    /<html[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`,
  )
  return document as unknown as Document
}

export const collapse = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim()

const PARAGRAPHS =
  /<(\/?(?:p|div|h[1-6]|section|article|header|footer|blockquote|pre|table|ul|ol|dl|figure|figcaption|hr)\b[^>]*)>/gi
const LINES = /<(\/?(?:li|br|tr|dd|dt)\b[^>]*)>/gi
const CELLS = /<((?:td|th)\b[^>]*)>/gi

/** Plain text of an HTML fragment: paragraphs separated by a blank line, list items and <br> by a newline. */
export function htmlToPlain(html: string): string {
  const doc = htmlDocument(html.replace(PARAGRAPHS, '\n\n<$1>').replace(LINES, '\n<$1>').replace(CELLS, ' <$1>'))
  for (const el of Array.from(doc.querySelectorAll('script,style,noscript,template'))) el.remove()
  return tidy(doc.body?.textContent ?? doc.documentElement?.textContent ?? '')
}

export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

export interface Article {
  title: string | null
  byline: string | null
  siteName: string | null
  excerpt: string | null
  lang: string | null
  publishedTime: string | null
  /** Article HTML (Readability's cleaned content, or the cleaned body on fallback). */
  html: string
  text: string
  /** `readability` when Mozilla Readability found the main content, `body` when it did not and the cleaned body was used. */
  extraction: 'readability' | 'body'
}

/** Readability's default `charThreshold`. */
export const READABILITY_MIN_CHARS = 500

/**
 * Most elements a page may have for Readability to run (about 1 s of its work over linkedom: 125,000 list items
 * took 18 s); a larger page gets the cleaned-body extraction.
 */
export const READABILITY_MAX_ELEMENTS = 10_000

const NOISE =
  'script,style,noscript,template,svg,iframe,form,nav,header,footer,aside,[role=navigation],[aria-hidden=true]'

/**
 * Main content of an HTML page with Mozilla Readability (the Firefox Reader View algorithm) over linkedom.
 * When Readability finds no article of at least 500 characters (short or unusual pages), or the page has more than
 * READABILITY_MAX_ELEMENTS elements, the body without scripts,
 * navigation, headers, footers, asides and forms is used, and `extraction` says so.
 */
export function extractArticle(html: string, url: string): Article {
  const doc = htmlDocument(html)
  // Relative links and images become absolute before anything is cut out.
  for (const [sel, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of Array.from(doc.querySelectorAll(sel))) {
      const v = el.getAttribute(attr) ?? ''
      if (/^\s*(javascript|vbscript|data):/i.test(v)) el.removeAttribute(attr)
      else {
        try {
          el.setAttribute(attr, new URL(v.trim(), url).href)
        } catch {
          /* left as written */
        }
      }
    }
  }
  const pageTitle = collapse(doc.querySelector('title')?.textContent) || null
  const lang = doc.documentElement?.getAttribute('lang')?.trim() || null
  for (const el of Array.from(doc.querySelectorAll('script,style,noscript,template'))) el.remove()
  const fallbackDoc = htmlDocument(doc.documentElement?.outerHTML ?? html)
  let article: ReturnType<Readability['parse']> = null
  // Counted here: Readability's own maxElemsToParse counts getElementsByTagName('*'), which is empty in linkedom.
  if (doc.querySelectorAll('*').length <= READABILITY_MAX_ELEMENTS) {
    try {
      article = new Readability(doc, { charThreshold: READABILITY_MIN_CHARS, keepClasses: false }).parse()
    } catch {
      article = null
    }
  }
  const fromReadability = (): Article => ({
    title: collapse(article!.title) || pageTitle,
    byline: collapse(article!.byline) || null,
    siteName: collapse(article!.siteName) || null,
    excerpt: collapse(article!.excerpt) || null,
    lang: article!.lang?.trim() || lang,
    publishedTime: article!.publishedTime?.trim() || null,
    html: article!.content ?? '',
    text: htmlToPlain(article!.content ?? ''),
    extraction: 'readability',
  })
  // Readability always returns its best attempt; below its own threshold (500 characters) that attempt is not an
  // article (it keeps menus of short pages), so the cleaned body is used instead.
  if (article?.content && collapse(article.textContent).length >= READABILITY_MIN_CHARS) return fromReadability()
  for (const el of Array.from(fallbackDoc.querySelectorAll(NOISE))) el.remove()
  const bodyHtml = fallbackDoc.body?.innerHTML ?? ''
  const bodyText = htmlToPlain(bodyHtml)
  if (!bodyText && article?.content && collapse(article.textContent)) return fromReadability()
  return {
    title: pageTitle,
    byline: null,
    siteName: null,
    excerpt: null,
    lang,
    publishedTime: null,
    html: bodyHtml,
    text: bodyText,
    extraction: 'body',
  }
}

/** Markdown of article HTML (turndown: ATX headings, fenced code, `-` bullets). */
export function toMarkdown(html: string): string {
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
  })
  td.remove(['script', 'style', 'noscript', 'iframe'] as unknown as string[])
  return td
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

const WORDS = new Intl.Segmenter('en', { granularity: 'word' })

/** Words as Unicode word segments (UAX #29; handles CJK, contractions, numbers). */
export function countWords(text: string): number {
  let n = 0
  for (const s of WORDS.segment(text)) if (s.isWordLike) n++
  return n
}

/** Silent-reading speed of English non-fiction (Brysbaert 2019, 238 wpm). */
export const DEFAULT_WPM = 238
