import { handlerFor } from '../../runtime/sdk'
import { collapse, fetchOk, HTML_TYPES, htmlDocument, requireUrl } from '../_lib/web-page'
import manifest from './manifest'

const bareHost = (h: string) => h.toLowerCase().replace(/^www\./, '')

export interface Link {
  url: string
  text: string
  rel: string[]
  external: boolean
  nofollow: boolean
}

export function pageLinks(html: string, finalUrl: string): Link[] {
  const doc = htmlDocument(html)
  let base = finalUrl
  const baseHref = doc.querySelector('base[href]')?.getAttribute('href')
  if (baseHref) {
    try {
      const b = new URL(baseHref.trim(), finalUrl)
      if (b.protocol === 'http:' || b.protocol === 'https:') base = b.href
    } catch {
      /* ignored */
    }
  }
  const pageHost = bareHost(new URL(finalUrl).hostname)
  const seen = new Map<string, Link>()
  for (const a of Array.from(doc.querySelectorAll('a[href], area[href]'))) {
    const href = (a.getAttribute('href') ?? '').trim()
    if (!href || href.startsWith('#')) continue
    let u: URL
    try {
      u = new URL(href, base)
    } catch {
      continue
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') continue
    u.hash = ''
    const key = u.href
    const rel = (a.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean)
    const text = (
      collapse(a.textContent) ||
      collapse(a.querySelector('img[alt]')?.getAttribute('alt')) ||
      collapse(a.getAttribute('title')) ||
      collapse(a.getAttribute('aria-label'))
    ).slice(0, 300)
    const prev = seen.get(key)
    if (prev) {
      if (!prev.text && text) prev.text = text
      continue
    }
    seen.set(key, {
      url: key,
      text,
      rel,
      external: bareHost(u.hostname) !== pageHost,
      nofollow: rel.includes('nofollow'),
    })
  }
  return [...seen.values()]
}

export default handlerFor(manifest, async ({ url, external_only = false, max_links = 500 }, ctx) => {
  const target = requireUrl('url', url)
  const page = await fetchOk(ctx, target, { accept: HTML_TYPES, maxBytes: 3 * 1024 * 1024 })
  const all = pageLinks(page.text(), page.url)
  const external = all.filter((l) => l.external).length
  const kept = external_only ? all.filter((l) => l.external) : all
  const links = kept.slice(0, max_links)
  return {
    url: target,
    final_url: page.url,
    external_only,
    total: kept.length,
    count: links.length,
    truncated: kept.length > links.length,
    internal_count: all.length - external,
    external_count: external,
    links,
  }
})
