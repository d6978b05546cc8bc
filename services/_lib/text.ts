/** Text helpers shared by the text services. Definitions are documented in each manifest. */

/** Whitespace-separated words (Python `str.split()`). */
export const words = (s: string): string[] => s.split(/\s+/u).filter(Boolean)

/**
 * Sentence splitting. A sentence never spans a blank line. Inside a paragraph a sentence ends at `!` or `?`, or at
 * `.` (including `...`), optionally followed by closing quotes or brackets, then whitespace or the end, except:
 * - the next word starts with a lower-case letter (`approx. three`, `etc. and`);
 * - the word before the dot is a title or Latin abbreviation (NEVER_END below: Mr., Dr., St., vs., e.g., i.e., ...),
 *   a single capital letter (an initial: `J. R. R. Tolkien`) or an upper-case dotted initialism (`U.S.`, `U.K.`);
 * - the word before the dot is a reference abbreviation (BEFORE_NUMBER: No., Fig., Vol., pp., Jan., ...) and the
 *   next word starts with a digit (`No. 5`, `Jan. 5`).
 * Decimals (`3.5`) never split because a boundary needs whitespace after the punctuation. Other abbreviations
 * (`etc.`, `Inc.`, `p.m.`) end a sentence when the next word is capitalised. Runs without a letter or digit are
 * not sentences.
 */
export const NEVER_END = [
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'st',
  'mt',
  'messrs',
  'rev',
  'hon',
  'gen',
  'col',
  'capt',
  'lt',
  'sgt',
  'cmdr',
  'gov',
  'sen',
  'rep',
  'pres',
  'supt',
  'vs',
  'v',
  'cf',
  'e.g',
  'i.e',
  'viz',
  'al',
]
export const BEFORE_NUMBER = [
  'no',
  'nos',
  'fig',
  'figs',
  'vol',
  'vols',
  'p',
  'pp',
  'ch',
  'sec',
  'art',
  'ed',
  'eq',
  'ca',
  'approx',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]
const NEVER = new Set(NEVER_END)
const NUMBERED = new Set(BEFORE_NUMBER)
const BOUNDARY = /[.!?]+["'\u201d\u2019)\]]*(?=\s|$)/gu

function endsSentence(para: string, at: number, punct: string, next: number): boolean {
  if (!punct.startsWith('.') || /[!?]/.test(punct)) return true
  let j = next
  while (j < para.length && /\s/u.test(para[j])) j++
  const after = para.slice(j, j + 2)
  if (/^\p{Ll}/u.test(after)) return false
  let i = at
  while (i > 0 && !/\s/u.test(para[i - 1]) && at - i < 64) i--
  const before = para.slice(i, at).replace(/^["'\u201c\u2018([]+/u, '')
  const token = before.toLowerCase()
  if (NEVER.has(token)) return false
  if (/^\p{Lu}$/u.test(before) || /^\p{Lu}(?:\.\p{Lu})+$/u.test(before)) return false
  if (NUMBERED.has(token) && /^\p{N}/u.test(after)) return false
  return true
}

/** Sentences (see the rules above), each trimmed. */
export function sentences(s: string): string[] {
  const out: string[] = []
  for (const para of s.split(/\n[^\S\n]*\n/u)) {
    let from = 0
    for (const m of para.matchAll(BOUNDARY)) {
      const end = m.index! + m[0].length
      if (!endsSentence(para, m.index!, m[0], end)) continue
      out.push(para.slice(from, end).trim())
      from = end
    }
    out.push(para.slice(from).trim())
  }
  return out.filter((x) => /[\p{L}\p{N}]/u.test(x))
}

/** Paragraphs: non-empty blocks separated by one or more blank lines. */
export const paragraphs = (s: string): string[] =>
  s
    .split(/\n\s*\n/u)
    .map((p) => p.trim())
    .filter(Boolean)

/** English stopwords (a fixed list of 127, the NLTK English list). */
export const STOPWORDS = new Set(
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now'.split(
    ' ',
  ),
)
