import { handlerFor, ServiceError } from '../../runtime/sdk'
import manifest from './manifest'

const VOCAB =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum'.split(
    ' ',
  )
const OPENING = ['lorem', 'ipsum', 'dolor', 'sit', 'amet']

/** mulberry32: a small, well-known 32-bit PRNG. */
function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export default handlerFor(manifest, ({ paragraphs, sentences, words, seed = 1, start_with_lorem = true }) => {
  const given = [paragraphs, sentences, words].filter((x) => x !== undefined).length
  if (given > 1)
    throw new ServiceError(422, 'INVALID_INPUT', 'Give only one of paragraphs, sentences or words.', {
      details: [{ path: '/', message: 'more than one count' }],
    })
  const rnd = mulberry32(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1))
  const stream: string[] = start_with_lorem ? [...OPENING] : []
  const word = () => stream.shift() ?? VOCAB[int(0, VOCAB.length - 1)]
  const sentence = (n: number) => {
    const ws = Array.from({ length: n }, word)
    return ws.join(' ').replace(/^./, (c) => c.toUpperCase()) + '.'
  }
  let paras: string[][]
  if (words !== undefined) {
    const out: string[] = []
    let left = words
    while (left > 0) {
      // 6-14 words a sentence; a remainder under 4 words joins the last sentence instead of standing alone
      let n = Math.min(left, int(6, 14))
      if (left - n < 4) n = left
      out.push(sentence(n))
      left -= n
    }
    paras = [out]
  } else if (sentences !== undefined) paras = [Array.from({ length: sentences }, () => sentence(int(6, 14)))]
  else
    paras = Array.from({ length: paragraphs ?? 1 }, () => Array.from({ length: int(4, 7) }, () => sentence(int(6, 14))))
  const texts = paras.map((p) => p.join(' '))
  return {
    text: texts.join('\n\n'),
    paragraphs: texts,
    counts: {
      paragraphs: texts.length,
      sentences: paras.reduce((n, p) => n + p.length, 0),
      words: texts.reduce((n, p) => n + p.split(' ').length, 0),
    },
  }
})
