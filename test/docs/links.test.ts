/**
 * Every relative link of the project's markdown (README.md, docs/, services/README.md and the other READMEs of the
 * tree) points at a file that exists and, with a `#fragment` into a markdown file, at one of its headings (GitHub's
 * anchors: lower case, punctuation dropped, spaces as dashes, repeats numbered). Links inside code are not links.
 */
import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

const root = join(import.meta.dir, '..', '..')
const files = [
  'README.md',
  ...new Bun.Glob('docs/*.md').scanSync(root),
  ...new Bun.Glob('{runtime,services,test,scripts,bench}/**/README.md').scanSync(root),
].sort()

/** The text outside fenced blocks and inline code. */
const prose = (md: string) => md.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')

/** GitHub's heading anchors of a markdown file. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const m of md.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n ? `${base}-${n}` : base)
  }
  return out
}

test('the markdown files are found', () => {
  expect(files).toContain('README.md')
  expect(files).toContain('docs/api.md')
  expect(files).toContain('services/README.md')
})

test('every relative link and anchor in the markdown resolves', () => {
  const broken: string[] = []
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const m of prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const href = m[1]
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue // http:, https:, mailto:
      const [path, fragment] = href.split('#')
      const target = path ? join(dirname(join(root, file)), decodeURIComponent(path)) : join(root, file)
      if (!existsSync(target)) {
        broken.push(`${file}: ${href} (no ${relative(root, target)})`)
        continue
      }
      if (fragment && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(fragment))
        broken.push(`${file}: ${href} (no heading #${fragment})`)
    }
  }
  expect(broken).toEqual([])
})
