/** The datetime family: 100 events with long, escape-heavy descriptions (line folding) stay linear. */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth(
  'ical-generate',
  'events with long escaped descriptions',
  (n) => ({
    events: Array.from({ length: n }, (_, i) => ({
      title: `E${i};,\\`,
      start: '2024-05-01T09:00:00Z',
      duration_minutes: 15,
      description: '😀;,\\\n'.repeat(1500),
    })),
  }),
  50,
  { outcomes: ['ok'] },
)
