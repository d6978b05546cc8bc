import { handlerFor } from '../../runtime/sdk'
import { collapse, fetchOk, HTML_TYPES, htmlDocument, requireUrl } from '../_lib/web-page'
import manifest from './manifest'

const abs = (v: string | null | undefined, base: string): string | null => {
  const s = (v ?? '').trim()
  if (!s) return null
  try {
    const u = new URL(s, base)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null
  } catch {
    return null
  }
}

export function pageMetadata(html: string, finalUrl: string) {
  const doc = htmlDocument(html)
  const og: Record<string, string> = {}
  const tw: Record<string, string> = {}
  const named: Record<string, string> = {}
  for (const m of Array.from(doc.querySelectorAll('meta'))) {
    const key = (m.getAttribute('property') || m.getAttribute('name') || '').trim()
    const content = m.getAttribute('content')
    if (!key || content === null) continue
    const k = key.toLowerCase()
    const v = content.trim()
    if (k.startsWith('og:') || k.startsWith('article:')) og[key] ??= v
    else if (k.startsWith('twitter:')) tw[key] ??= v
    else named[k] ??= v
  }
  const get = (rec: Record<string, string>, k: string) =>
    Object.entries(rec).find(([key]) => key.toLowerCase() === k)?.[1] || null
  const links = Array.from(doc.querySelectorAll('link[rel][href]')).map((l) => ({
    rel: (l.getAttribute('rel') ?? '').toLowerCase().split(/\s+/),
    href: l.getAttribute('href') ?? '',
    type: (l.getAttribute('type') ?? '').toLowerCase(),
    title: l.getAttribute('title'),
    sizes: l.getAttribute('sizes') ?? '',
  }))
  const icon =
    links.find((l) => l.rel.includes('icon') && !l.rel.includes('mask-icon')) ??
    links.find((l) => l.rel.includes('shortcut')) ??
    links.find((l) => l.rel.includes('apple-touch-icon') || l.rel.includes('apple-touch-icon-precomposed'))
  const canonical =
    abs(links.find((l) => l.rel.includes('canonical'))?.href, finalUrl) ?? abs(get(og, 'og:url'), finalUrl)
  const feeds = links
    .filter(
      (l) =>
        l.rel.includes('alternate') && /^application\/(rss|atom|feed)\+xml$|^application\/(rss\+)?xml$/.test(l.type),
    )
    .map((l) => ({ url: abs(l.href, finalUrl), type: l.type, title: collapse(l.title) || null }))
    .filter((f): f is { url: string; type: string; title: string | null } => f.url !== null)
    .slice(0, 20)
  const keywords = (named.keywords ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .slice(0, 50)
  return {
    title: collapse(doc.querySelector('title')?.textContent) || get(og, 'og:title'),
    description: named.description || get(og, 'og:description') || get(tw, 'twitter:description'),
    canonical,
    favicon: abs(icon?.href, finalUrl) ?? new URL('/favicon.ico', finalUrl).href,
    lang: doc.documentElement?.getAttribute('lang')?.trim() || null,
    site_name: get(og, 'og:site_name'),
    image:
      abs(get(og, 'og:image') ?? get(og, 'og:image:url') ?? get(og, 'og:image:secure_url'), finalUrl) ??
      abs(get(tw, 'twitter:image') ?? get(tw, 'twitter:image:src'), finalUrl),
    type: get(og, 'og:type'),
    author: named.author || get(og, 'article:author'),
    published_time: get(og, 'article:published_time'),
    keywords,
    theme_color: named['theme-color'] || null,
    feeds,
    open_graph: og,
    twitter: tw,
  }
}

export default handlerFor(manifest, async ({ url }, ctx) => {
  const target = requireUrl('url', url)
  const page = await fetchOk(ctx, target, { accept: HTML_TYPES, maxBytes: 3 * 1024 * 1024 })
  return { url: target, final_url: page.url, status: page.status, ...pageMetadata(page.text(), page.url) }
})
