import type TurndownService from 'turndown'

type El = {
  nodeName: string
  parentNode: El | null
  children: ArrayLike<El>
  getAttribute(n: string): string | null
  previousElementSibling: El | null
  querySelector(s: string): El | null
}

/** Elements removed with their content before conversion (active or non-textual content). */
export const REMOVED =
  'script,style,noscript,template,iframe,frame,frameset,object,embed,applet,canvas,svg,link,meta,base,head'

/** Deepest element nesting accepted (turndown converts recursively). */
export const MAX_DEPTH = 500

type Node = { children: ArrayLike<Node> }
/**
 * Element nesting depth below `root`, computed without recursion. `children` is read once per node: linkedom
 * rebuilds the list on every read, so reading it per index made 60,000 sibling elements take minutes.
 */
export function depth(root: Node): number {
  let max = 0
  const stack: Array<[Node, number]> = [[root, 0]]
  while (stack.length) {
    const [n, d] = stack.pop()!
    if (d > max) max = d
    const kids = Array.from(n.children)
    for (const k of kids) stack.push([k, d + 1])
  }
  return max
}

/** URL schemes that never survive in href/src. */
export const UNSAFE_URL = /^\s*(?:javascript|vbscript|data|file):/i

const cellText = (content: string) => content.replace(/\n+/g, ' ').replace(/\|/g, '\\|').trim()
const isHeaderRow = (tr: El) => {
  const section = tr.parentNode
  if (section?.nodeName === 'THEAD') return true
  const table = section?.nodeName === 'TABLE' ? section : section?.parentNode
  const first = table?.querySelector('tr')
  return first === tr
}
const align = (cell: El) => {
  const a = (cell.getAttribute('align') ?? '').toLowerCase()
  return a === 'center' ? ':---:' : a === 'right' ? '---:' : a === 'left' ? ':---' : '---'
}

/** GitHub Flavored Markdown rules: pipe tables (first row = header), ~~strikethrough~~, task-list check boxes. */
export function addGfmRules(td: TurndownService): TurndownService {
  td.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node: El) => (node.previousElementSibling ? ' ' : '| ') + cellText(content) + ' |',
  })
  td.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node: El) => {
      const row = '\n' + content
      if (!isHeaderRow(node)) return row
      const cells = Array.from(node.children).filter((c) => c.nodeName === 'TH' || c.nodeName === 'TD')
      return row + '\n| ' + cells.map(align).join(' | ') + ' |'
    },
  })
  td.addRule('table', {
    filter: 'table',
    replacement: (content) => '\n\n' + content.replace(/\n{2,}/g, '\n').trim() + '\n\n',
  })
  td.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content })
  td.addRule('strikethrough', {
    filter: ['del', 's', 'strike'],
    replacement: (content) => (content.trim() ? `~~${content}~~` : ''),
  })
  td.addRule('taskCheckbox', {
    filter: (node: El) => node.nodeName === 'INPUT' && (node.getAttribute('type') ?? '').toLowerCase() === 'checkbox',
    replacement: (_c, node: El) => (node.getAttribute('checked') !== null ? '[x]' : '[ ]'),
  })
  return td
}
