import { handlerFor } from '../../runtime/sdk'
import { paragraphs, sentences, words } from '../_lib/text'
import manifest from './manifest'

const WPM = 238

export default handlerFor(manifest, ({ text }) => {
  const ws = words(text)
  const letters = ws.reduce((n, w) => n + (w.match(/[\p{L}\p{N}]/gu)?.length ?? 0), 0)
  return {
    characters: [...text].length,
    characters_no_spaces: [...text.replace(/\s/gu, '')].length,
    words: ws.length,
    sentences: sentences(text).length,
    paragraphs: paragraphs(text).length,
    lines: text === '' ? 0 : text.split(/\r\n|\r|\n/).length,
    average_word_length: ws.length ? Math.round((letters / ws.length) * 100) / 100 : 0,
    reading_time_seconds: Math.round((ws.length / WPM) * 60),
    words_per_minute: WPM,
  }
})
