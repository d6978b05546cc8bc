import { parseHTML } from 'linkedom'
import TurndownService from 'turndown'
import { handlerFor, invalid } from '../../runtime/sdk'
import { addGfmRules, depth, MAX_DEPTH, REMOVED, UNSAFE_URL } from './lib'
import manifest from './manifest'

function baseUrl(s: string | undefined): URL | undefined {
  if (s === undefined) return undefined
  try {
    const u = new URL(s)
    if (u.protocol === 'http:' || u.protocol === 'https:') return u
  } catch {
    /* reported below */
  }
  throw invalid('base_url', 'must be an absolute http(s) URL')
}

export default handlerFor(
  manifest,
  ({
    html,
    heading_style = 'atx',
    bullet_marker = '-',
    code_block_style = 'fenced',
    link_style = 'inlined',
    base_url,
  }) => {
    const base = baseUrl(base_url)
    // linkedom needs the <html> element: a bare fragment would become the root and lose its text.
    const { document } = parseHTML(/<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`)
    const title = document.querySelector('title')?.textContent?.replace(/\s+/g, ' ').trim() || null
    for (const el of document.querySelectorAll(REMOVED)) el.remove()
    for (const [sel, attr] of [
      ['a[href]', 'href'],
      ['img[src]', 'src'],
    ] as const) {
      for (const el of document.querySelectorAll(sel)) {
        const v = el.getAttribute(attr) ?? ''
        if (UNSAFE_URL.test(v)) el.removeAttribute(attr)
        else if (base) {
          try {
            el.setAttribute(attr, new URL(v.trim(), base).href)
          } catch {
            /* left as written */
          }
        }
      }
    }
    const td = addGfmRules(
      new TurndownService({
        headingStyle: heading_style,
        bulletListMarker: bullet_marker,
        codeBlockStyle: code_block_style,
        linkStyle: link_style,
        emDelimiter: '_',
        strongDelimiter: '**',
        hr: '---',
      }),
    )
    const root = document.body ?? document.documentElement
    if (root && depth(root) > MAX_DEPTH) throw invalid('html', `elements are nested more than ${MAX_DEPTH} levels deep`)
    let markdown = ''
    try {
      markdown = root
        ? td
            .turndown(root)
            .replace(/^[\r\n]+/, '')
            .trimEnd()
        : ''
    } catch (e) {
      if (e instanceof RangeError) throw invalid('html', 'is nested too deeply to convert')
      throw e
    }
    return { markdown, length: markdown.length, title }
  },
)
