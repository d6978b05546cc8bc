/** Handler throughput for a utility-heavy mix, called directly (no HTTP), to catch slow handlers. */
import { entries } from '../test/support/entries'
import { prepareInput } from '../runtime/input/validate'
import { testContext } from '../runtime/sdk'

const MIX: Array<[string, Record<string, unknown>]> = [
  ['hash-digest', { text: 'The quick brown fox jumps over the lazy dog'.repeat(20), algo: 'sha256' }],
  [
    'json-format',
    {
      json: JSON.stringify({ a: [1, 2, 3], b: { c: 'd' }, e: Array.from({ length: 50 }, (_, i) => i) }),
      indent: 2,
      sort_keys: true,
    },
  ],
  [
    'csv-to-json',
    {
      csv: 'name,age,city\n' + Array.from({ length: 100 }, (_, i) => `p${i},${20 + (i % 50)},"Town, ${i}"`).join('\n'),
    },
  ],
  ['regex-test', { pattern: '(\\w+)@(\\w+)\\.com', text: 'a@b.com c@d.com '.repeat(20), flags: 'g' }],
  ['slugify', { text: 'Héllo Wörld, this is a fairly long title for a slug' }],
]

export async function handlerThroughput(n: number): Promise<string[]> {
  const rows = ['| service | calls per second | mean µs per call |', '|---|---|---|']
  for (const [slug, input] of MIX) {
    const e = entries.find((x) => x.folder === slug)
    if (!e?.handler) {
      rows.push(`| ${slug} | not built | |`)
      continue
    }
    const ctx = testContext({ service: slug, tier: 'flat' })
    const run = async () => e.handler!(prepareInput(e.manifest.input, input) as never, ctx)
    try {
      await run()
    } catch (err) {
      rows.push(`| ${slug} | failed: ${(err as Error).message} | |`)
      continue
    }
    const t = performance.now()
    for (let i = 0; i < n; i++) await run()
    const s = (performance.now() - t) / 1000
    rows.push(`| ${slug} | ${Math.round(n / s)} | ${((s / n) * 1e6).toFixed(0)} |`)
  }
  return rows
}
