/** The validation family: pattern-heavy parsers stay linear on hostile strings at their caps (no regex backtracking). */
import { hostileGrowth } from '../../test/support/large-inputs'

for (const [unit, label] of [
  ['Mozilla/5.0 (', 'nested parentheses'],
  ['; Android 1.1', 'repeated tokens'],
  ['a/1 ', 'product tokens'],
] as const)
  hostileGrowth(
    'user-agent-parse',
    `user agent of ${label}`,
    (n) => ({ ua: unit.repeat(Math.floor(n / unit.length)) }),
    1_000,
  )
hostileGrowth(
  'url-parse',
  'a URL of many query parameters',
  (n) => ({ url: `https://a.b/?${'x=1&'.repeat(n / 4)}` }),
  4_000,
)
