import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

export function slugify(text: string, separator = '-'): string {
  const ascii = text.normalize('NFKD').replace(/[^\x00-\x7f]/g, '')
  const kept = ascii.toLowerCase().replace(/[^\w\s-]/g, '')
  return kept
    .replace(/[-\s]+/g, separator)
    .replace(/^[-_]+|[-_]+$/g, '')
    .replace(new RegExp(`^\\${separator}+|\\${separator}+$`, 'g'), '')
}

function cut(slug: string, max: number | undefined, separator: string): string {
  if (!max || slug.length <= max) return slug
  const head = slug.slice(0, max)
  const at = head.lastIndexOf(separator)
  return (at > 0 ? head.slice(0, at) : head).replace(new RegExp(`\\${separator}+$`), '')
}

export default handlerFor(manifest, ({ text, separator = '-', max_length }) => {
  const slug = cut(slugify(text, separator), max_length, separator)
  return { slug, length: slug.length }
})
