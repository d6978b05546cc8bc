import { Marked, type Token, type Tokens } from 'marked'
import sanitizeHtml from 'sanitize-html'
import { handlerFor, invalid } from '../../runtime/sdk'
import { emphasisScan, MAX_EMPHASIS_SCAN } from './lib'
import manifest from './manifest'

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Allow-list: structural and inline tags only; no active content, no style, no event handlers. */
function sanitizeOptions(images: boolean): sanitizeHtml.Options {
  return {
    allowedTags: [
      ...sanitizeHtml.defaults.allowedTags,
      'del',
      'ins',
      'details',
      'summary',
      'input',
      ...(images ? ['img'] : []),
    ],
    allowedAttributes: {
      a: ['href', 'title'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      code: ['class'],
      ol: ['start'],
      th: ['align', 'colspan', 'rowspan'],
      td: ['align', 'colspan', 'rowspan'],
      input: ['type', 'checked', 'disabled'],
    },
    allowedClasses: { code: ['language-*'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: true,
    disallowedTagsMode: 'discard',
    // Only GFM task-list check boxes survive (always disabled); any other <input> is dropped.
    exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
    transformTags: {
      input: (tagName, attribs) => ({
        tagName,
        attribs: {
          type: (attribs.type ?? '').toLowerCase(),
          disabled: '',
          ...('checked' in attribs ? { checked: '' } : {}),
        },
      }),
    },
  }
}

/** Plain text of inline tokens (for the heading list). */
function plain(tokens: Token[] | undefined): string {
  let s = ''
  for (const tk of tokens ?? []) {
    if ('tokens' in tk && tk.tokens?.length) s += plain(tk.tokens)
    else if (tk.type === 'html' || tk.type === 'br') continue
    else if ('text' in tk && typeof tk.text === 'string')
      s += tk.type === 'escape' || tk.type === 'codespan' ? tk.text : decode(tk.text)
  }
  return s
}
const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!)

/** marked nests containers recursively (and slows down quadratically with list depth): cap the nesting. */
const MAX_NESTING = 100
const MAX_INDENT = 400
function checkNesting(markdown: string): void {
  for (const line of markdown.split('\n')) {
    const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length
    if (indent > MAX_INDENT) throw invalid('markdown', `a line is indented more than ${MAX_INDENT} columns`)
    const markers = /^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]*)*/
      .exec(line)![0]
      .replace(/[^>*+\-.)]/g, '').length
    if (markers > MAX_NESTING)
      throw invalid('markdown', `block quotes or lists are nested more than ${MAX_NESTING} levels deep`)
  }
}

export default handlerFor(
  manifest,
  ({ markdown, gfm = true, breaks = false, raw_html = 'sanitize', images = true }) => {
    checkNesting(markdown)
    if (emphasisScan(markdown) > MAX_EMPHASIS_SCAN)
      throw invalid(
        'markdown',
        'has too many * or _ emphasis delimiters in one paragraph for its length: separate paragraphs with a blank line or escape literal ones as \\* and \\_',
      )
    const marked = new Marked({ gfm, breaks, async: false })
    if (raw_html === 'escape')
      marked.use({ renderer: { html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text) } })
    const headings: Array<{ level: number; text: string }> = []
    let rendered: string
    try {
      const tokens = marked.lexer(markdown)
      marked.walkTokens(tokens, (tk) => {
        if (tk.type === 'heading') headings.push({ level: tk.depth, text: plain(tk.tokens).trim() })
      })
      rendered = marked.parser(tokens)
    } catch (e) {
      if (e instanceof RangeError) throw invalid('markdown', 'is nested too deeply to render')
      throw e
    }
    const html = sanitizeHtml(rendered, sanitizeOptions(images))
    return { html, length: html.length, headings }
  },
)
