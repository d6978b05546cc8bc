/**
 * The first sentence of a description, whole: a `.`, `!` or `?` ends it only when followed by a space and not part of
 * an abbreviation ("e.g.", "i.e.", "etc.", "vs.", "ch.", an initial such as "J."), so a one-liner is never cut
 * mid-sentence.
 */

/** Words that end with a period without ending the sentence (compared lower-case, without the period). */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'cf',
  'ch',
  'approx',
  'incl',
  'excl',
  'no',
  'fig',
  'resp',
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'jr',
  'sr',
  'inc',
  'ltd',
  'co',
  'min',
  'max',
  'avg',
  'est',
  'ca',
])

/** The description up to the end of its first sentence (whitespace collapsed); the whole text if it has one sentence. */
export function firstSentence(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim()
  const end = /[.!?]['")\]]?(?= )/g
  for (let m = end.exec(flat); m; m = end.exec(flat)) {
    if (m[0][0] === '.') {
      const word = flat.slice(0, m.index).match(/[\p{L}.]*$/u)?.[0] ?? ''
      if (ABBREVIATIONS.has(word.toLowerCase()) || /^\p{L}$/u.test(word)) continue
      // Inside brackets the sentence goes on: "(about 4 characters or 0.75 words per token. ...)" is rare; an
      // unclosed "(" before the period means the period is not the end.
      const before = flat.slice(0, m.index)
      if ((before.match(/\(/g)?.length ?? 0) > (before.match(/\)/g)?.length ?? 0)) continue
    }
    return flat.slice(0, m.index + m[0].length)
  }
  return flat
}
