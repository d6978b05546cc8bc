/**
 * Fetching user URLs for model services through `ctx.fetch` (the SSRF-safe fetcher), with type and size checks,
 * so the model provider only ever receives data, never a URL to fetch. Used by analyze-image, extract-document,
 * summarize-url.
 */
import { Readability } from '@mozilla/readability'
import { parseHTML } from 'linkedom'
import { extractText, getDocumentProxy } from 'unpdf'
import { invalid, ServiceError, type ServiceContext } from '../../runtime/sdk'
import { sniffImage } from './media-input'

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024

/** True when the whole string is one http(s) URL. */
export const isHttpUrl = (s: string): boolean => /^https?:\/\/[^\s]+$/i.test(s.trim())

export function checkUrl(field: string, s: string): string {
  const u = s.trim()
  let parsed: URL
  try {
    parsed = new URL(u)
  } catch {
    throw invalid(field, 'must be an absolute http(s) URL')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(field, 'must be an http(s) URL')
  return parsed.href
}

/** The image media type from its first bytes (the declared Content-Type is not trusted alone). */
function sniffImageType(b: Uint8Array): string | undefined {
  const kind = sniffImage(b)
  return kind ? `image/${kind}` : undefined
}

/** Fetches an image (PNG, JPEG, GIF or WebP, at most 5 MiB). */
export async function fetchImage(
  ctx: ServiceContext,
  url: string,
  field = 'code',
): Promise<{ mediaType: string; data: Uint8Array; url: string }> {
  const page = await ctx.fetch(checkUrl(field, url), { accept: ['image/'], maxBytes: MAX_IMAGE_BYTES })
  const mediaType = sniffImageType(page.body)
  if (!mediaType)
    throw new ServiceError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `the URL did not return a PNG, JPEG, GIF or WebP image (got ${page.contentType || 'unknown type'})`,
    )
  return { mediaType, data: page.body, url: page.url }
}

/** Readable text of an HTML page: Readability's article when it finds one, else the body text. */
export function htmlToText(html: string): { title: string; text: string } {
  // Block boundaries become line breaks (textContent would glue "Title" and "Text" together).
  const spaced = html.replace(
    /<(\/?(?:p|div|h[1-6]|li|br|tr|td|th|section|article|header|footer|blockquote|pre|table|ul|ol|dd|dt)\b[^>]*)>/gi,
    '\n<$1>',
  )
  // linkedom needs the <html> element (a bare fragment would become the root and lose its text).
  const { document } = parseHTML(
    /<html[\s>]/i.test(spaced) ? spaced : `<!doctype html><html><body>${spaced}</body></html>`,
  )
  for (const el of document.querySelectorAll('script,style,noscript,template,svg')) el.remove()
  const title = (document.querySelector('title')?.textContent ?? '').trim()
  let text = ''
  try {
    const article = new Readability(document as unknown as Document).parse()
    text = article?.textContent ?? ''
    if (article?.title && !title) return { title: article.title.trim(), text: tidy(text) }
  } catch {
    /* fall back to body text */
  }
  if (!text.trim()) text = document.body?.textContent ?? document.documentElement?.textContent ?? ''
  return { title, text: tidy(text) }
}

const tidy = (s: string) =>
  s
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*(\n\s*)+/g, '\n\n')
    .trim()

const DOC_TYPES = ['application/pdf', 'text/', 'application/xhtml+xml', 'application/json', 'application/xml']

/** Fetches a document (PDF, HTML, plain text, JSON or XML, at most 10 MiB) and returns its text. */
export async function fetchDocument(
  ctx: ServiceContext,
  url: string,
  field = 'code',
): Promise<{ url: string; contentType: string; title: string; text: string }> {
  const page = await ctx.fetch(checkUrl(field, url), { accept: DOC_TYPES, maxBytes: MAX_DOCUMENT_BYTES })
  const ct = page.contentType
  const isPdf =
    ct === 'application/pdf' ||
    (page.body[0] === 0x25 && page.body[1] === 0x50 && page.body[2] === 0x44 && page.body[3] === 0x46)
  if (isPdf) return { url: page.url, contentType: 'application/pdf', title: '', text: await pdfText(page.body) }
  if (!DOC_TYPES.some((p) => ct.startsWith(p)))
    throw new ServiceError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `unsupported document type ${ct || 'unknown'}; send a PDF, HTML or text URL`,
    )
  const raw = page.text()
  if (ct === 'text/html' || ct === 'application/xhtml+xml')
    return { url: page.url, contentType: ct, ...htmlToText(raw) }
  return { url: page.url, contentType: ct, title: '', text: raw.trim() }
}

/** Text of a PDF, pages separated by blank lines. A PDF that cannot be read is a 422. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes))
    const { text } = await extractText(pdf, { mergePages: false })
    return tidy((text as string[]).join('\n\n'))
  } catch (e) {
    throw new ServiceError(
      422,
      'UNREADABLE_DOCUMENT',
      `the PDF could not be read (${(e as Error).message.slice(0, 100)})`,
    )
  }
}
