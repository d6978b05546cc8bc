import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

const ALIASES: Record<string, string> = {
  snake_case: 'snake',
  camelCase: 'camel',
  PascalCase: 'pascal',
  'kebab-case': 'kebab',
  CONSTANT: 'constant',
  CONSTANT_CASE: 'constant',
}

/** Splits identifiers and phrases into words: separators, lower→Upper and ACRONYMWord boundaries. */
export function splitWords(text: string): string[] {
  return text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()

export default handlerFor(manifest, ({ text, to }) => {
  const target = ALIASES[to] ?? to
  const ws = ['upper', 'lower', 'title', 'sentence'].includes(target) ? [] : splitWords(text)
  const lower = ws.map((w) => w.toLowerCase())
  const result: string = {
    upper: () => text.toUpperCase(),
    lower: () => text.toLowerCase(),
    title: () => text.toLowerCase().replace(/(^|[^\p{L}\p{N}'’])(\p{L})/gu, (_, p, c) => p + c.toUpperCase()),
    sentence: () => text.toLowerCase().replace(/(^\s*|[.!?]\s+)(\p{L})/gu, (_, p, c) => p + c.toUpperCase()),
    snake: () => lower.join('_'),
    kebab: () => lower.join('-'),
    constant: () => lower.join('_').toUpperCase(),
    camel: () => lower.map((w, i) => (i ? cap(w) : w)).join(''),
    pascal: () => lower.map(cap).join(''),
  }[target]!()
  return { to: target, result, words: ws }
})
