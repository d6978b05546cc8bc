/** Text helpers shared by the text services. Definitions are documented in each manifest. */

/** Whitespace-separated words (Python `str.split()`). */
export const words = (s: string): string[] => s.split(/\s+/u).filter(Boolean)

/** Sentences: runs ending in . ! ? (or the end), ignoring common abbreviations and decimals. */
const ABBREV = /\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|etc|e\.g|i\.e|Inc|Ltd|Co|No|Fig|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.$/i
export function sentences(s: string): string[] {
  const out: string[] = []
  let cur = ''
  const parts = s.split(/([.!?]+)(?=\s|$)/u)
  for (let i = 0; i < parts.length; i += 2) {
    cur += parts[i] + (parts[i + 1] ?? '')
    if (parts[i + 1] !== undefined && !ABBREV.test(cur.trimEnd())) {
      if (cur.trim()) out.push(cur.trim())
      cur = ''
    }
  }
  if (cur.trim()) out.push(cur.trim())
  return out
}

/** Paragraphs: non-empty blocks separated by one or more blank lines. */
export const paragraphs = (s: string): string[] => s.split(/\n\s*\n/u).map((p) => p.trim()).filter(Boolean)

/** English stopwords (a fixed list of 127, the NLTK English list). */
export const STOPWORDS = new Set(
  "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now".split(' '),
)
