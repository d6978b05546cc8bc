/**
 * The JSON depth check on the body path, as a ratio to JSON.parse of the same text (which every paid call does
 * anyway). `bun bench/body-scan.ts`. Target: well below 1 for every shape.
 */
import { nestsDeeperThan, MAX_JSON_DEPTH } from '../runtime/http/body'

const shapes: Array<[string, string, number]> = [
  ['small utility body', JSON.stringify({ text: 'hello world '.repeat(10), algo: 'sha256' }), 100_000],
  ['1 MB of text', JSON.stringify({ text: 'lorem ipsum '.repeat(80_000) }), 40],
  [
    '1 MB of objects',
    JSON.stringify({
      items: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] })),
    }),
    20,
  ],
]
const time = (n: number, fn: () => unknown) => {
  const t = performance.now()
  for (let i = 0; i < n; i++) fn()
  return (performance.now() - t) / n
}
console.log('| body | JSON.parse (ms) | depth check (ms) | ratio |')
console.log('|---|---|---|---|')
for (const [name, text, n] of shapes) {
  time(Math.ceil(n / 10), () => JSON.parse(text))
  time(Math.ceil(n / 10), () => nestsDeeperThan(text, MAX_JSON_DEPTH))
  const parse = time(n, () => JSON.parse(text))
  const scan = time(n, () => nestsDeeperThan(text, MAX_JSON_DEPTH))
  console.log(
    `| ${name} (${text.length} B) | ${parse.toFixed(4)} | ${scan.toFixed(4)} | ${(scan / parse).toFixed(2)} |`,
  )
}
