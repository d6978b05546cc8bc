/**
 * The runtime's import graph read from the import statements themselves, for the layout tests (test/db/layout.test.ts,
 * test/pay/layout.test.ts): relative specifiers only (packages are not part of the layout), resolved to files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

export const RUNTIME = join(import.meta.dir, '../../runtime')

/** One import of a file: the file it names, and whether it is erased at compile time (types only). */
export interface Edge {
  to: string
  typeOnly: boolean
}

export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

function resolveSpec(file: string, spec: string): string {
  const base = join(dirname(file), spec)
  return [`${base}.ts`, join(base, 'index.ts'), base].find((p) => existsSync(p)) ?? base
}

/** `import type …`, `export type …`, or named imports that are all `type X` (erased: verbatimModuleSyntax is off). */
function erased(keyword: string, typeKeyword: string | undefined, clause: string): boolean {
  if (typeKeyword) return true
  const named = clause.match(/^\{([^}]*)\}\s*from$/)
  if (!named || keyword !== 'import') return false
  const names = named[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return names.length > 0 && names.every((n) => n.startsWith('type '))
}

/**
 * Static (`import … from '…'`, `export … from '…'`, `import '…'`) and dynamic (`import('…')`) relative imports of a
 * file; `typeof import('…')` counts as type-only. Block comments and whole-line comments are skipped.
 */
export function importsOf(file: string): Edge[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
  const edges: Edge[] = []
  const statement =
    /\b(import|export)\s+(type\s+)?((?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*(?:as\s+[\w$]+)?)?\s*from\s*)?'(\.{1,2}\/[^']+)'/g
  for (const m of code.matchAll(statement))
    edges.push({ to: resolveSpec(file, m[4]), typeOnly: erased(m[1], m[2], (m[3] ?? '').trim()) })
  for (const m of code.matchAll(/(\btypeof\s+)?\bimport\s*\(\s*'(\.{1,2}\/[^']+)'\s*\)/g))
    edges.push({ to: resolveSpec(file, m[2]), typeOnly: Boolean(m[1]) })
  return edges
}

export const rel = (f: string) => relative(RUNTIME, f)

/** The import circles among `files` (edges leaving `files` are not followed), each as `a -> b -> a`. */
export function circles(files: string[], edgesOf: (f: string) => string[]): string[] {
  const inside = new Set(files)
  const found: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (f: string, path: string[]) => {
    if (state.get(f) === 'done') return
    if (state.get(f) === 'open') {
      found.push([...path.slice(path.indexOf(f)), f].map(rel).join(' -> '))
      return
    }
    state.set(f, 'open')
    for (const to of edgesOf(f)) if (inside.has(to)) visit(to, [...path, f])
    state.set(f, 'done')
  }
  for (const f of files) visit(f, [])
  return found
}
