/**
 * Inputs at a service's size cap, for its own services/<slug>/*.test.ts: hostile strings for the pattern-based
 * services (no regex backtracking blow-up), plain prose of a given length, hostile PDFs and images, and the one
 * declaration of a "doubling the hostile input at most doubles the work" test (issue #24; work = CPU time, never
 * wall time: test/support/growth.ts).
 */
import { deflateSync } from 'node:zlib'
import { afterAll, expect, test } from 'bun:test'
import { ServiceError } from '../../runtime/sdk'
import { type Fixture, serviceRunner } from './fixture-run'
import { expectCpuUnder, expectLinearGrowth } from './growth'

const N = 490_000

/** Strings that make a backtracking regex explode; every pattern-based service must stay linear on them. */
export const HOSTILE_TEXTS = [
  '1-'.repeat(N / 2),
  '1.'.repeat(N / 2),
  'a.'.repeat(N / 2) + '@',
  '0'.repeat(N),
  'http://' + 'a'.repeat(N),
  'ab@'.repeat(N / 3),
  '1 '.repeat(N / 2),
  ':'.repeat(N),
  'ffff:'.repeat(N / 5),
  '$1,111'.repeat(N / 6),
  '#'.repeat(N),
  '4111 '.repeat(N / 5),
  'http://a.b #c @d 1.2.3.4 x@y.io '.repeat(N / 32),
]

const PROSE = 'Dr. Smith met Mr. Lee in the U.S. on Jan. 5. They talked for 3.5 hours! Was it useful? Yes. '
/** Prose of about `chars` characters, with abbreviations, decimals and every sentence end. */
export const prose = (chars: number) => PROSE.repeat(Math.floor(chars / PROSE.length))

/**
 * Declares the "linear on hostile inputs" test of a pattern-based text service: each hostile string at the size cap
 * must cost well under 2 s of CPU (a backtracking regex takes minutes on them; this is a blow-up guard, not a
 * benchmark, and CPU time does not grow with the machine's load).
 */
export function linearOnHostileInputs(slug: string): void {
  const svc = serviceRunner(slug)
  afterAll(svc.close)
  test('linear on hostile inputs', async () => {
    for (const text of HOSTILE_TEXTS) {
      const run = await expectCpuUnder(text.slice(0, 12), 2000, () => svc.run({ name: 'hostile', input: { text } }))
      if (run.error) throw run.error
    }
  }, 120_000)
}

/** What one hostile call ended as: 'ok', or the status and code of the refusal. */
export type Outcome = 'ok' | `${number} ${string}`

/**
 * Declares the growth test of one hostile input of `slug`: `input(n)` at sizes n and 2n through the handler (input
 * validation included); doubling it may at most about double the work, counted as CPU time (test/support/growth.ts). Every call must end
 * as `outcomes` allows (default: answered or refused with a 4xx; never a 5xx or an unexpected error).
 */
export function hostileGrowth(
  slug: string,
  label: string,
  input: (n: number) => unknown | Promise<unknown>,
  n: number,
  {
    outcomes,
    fixture,
    ...opts
  }: {
    outcomes?: Outcome[]
    /** The rest of the fixture at size n: the served web page, upstream answers or scripted model replies. */
    fixture?: (n: number) => Omit<Fixture, 'name' | 'input'>
    maxRatio?: number
    floorMs?: number
    reps?: number
  } = {},
): void {
  const svc = serviceRunner(slug)
  afterAll(svc.close)
  test(`${label}: linear when the hostile input doubles`, async () => {
    const seen = new Set<Outcome>()
    const build = async (k: number): Promise<Fixture> => ({ ...fixture?.(k), name: label, input: await input(k) })
    const fixtures = new Map([
      [n, await build(n)],
      [2 * n, await build(2 * n)],
    ])
    await expectLinearGrowth(
      label,
      async (k) => {
        const run = await svc.run(fixtures.get(k)!)
        const e = run.error
        if (e && !(e instanceof ServiceError)) throw e
        seen.add(e instanceof ServiceError ? `${e.status} ${e.code}` : 'ok')
      },
      n,
      opts,
    )
    const allowed = outcomes ?? [...seen].filter((o) => o === 'ok' || o.startsWith('4'))
    expect([...seen].filter((o) => !allowed.includes(o))).toEqual([])
  }, 240_000)
}

/** One hostile input of a service (the data and encoding families declare theirs as lists: `growsLinearly`). */
export interface HostileCase {
  /** What the input attacks, e.g. "90,000 distinct YAML keys". */
  name: string
  /** The input at size n (built once per size, outside the timing). */
  input: (n: number) => Record<string, unknown>
  /** The smaller size; 2n should be near the service's input cap. */
  n: number
  /** The error code of the 422 both sizes must get; absent when both must be answered. */
  refused?: string
  /** Runs at each size (default 5; fewer for cases that take seconds). */
  reps?: number
}

/** `hostileGrowth` for each case: every run ends exactly as the case says (answered, or its 422), never a 500. */
export function growsLinearly(slug: string, cases: HostileCase[]): void {
  for (const c of cases)
    hostileGrowth(slug, c.name, c.input, c.n, {
      outcomes: [c.refused ? `422 ${c.refused}` : 'ok'],
      reps: c.reps ?? 5,
    })
}

/** A PDF whose object streams are all `mib` MiB of spaces, deflated: `streams` x 40 KB inflating to streams x mib MiB. */
export function pdfDeflateBomb(streams: number, mib = 40): Uint8Array {
  const z = deflateSync(Buffer.alloc(mib * 1024 * 1024, 0x20), { level: 9 })
  const latin1 = (s: string) => Buffer.from(s, 'latin1')
  const parts = [
    latin1(
      '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
        '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n',
    ),
  ]
  for (let i = 0; i < streams; i++)
    parts.push(
      latin1(`${10 + i} 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${z.length} >>\nstream\n`),
      z,
      latin1('\nendstream\nendobj\n'),
    )
  parts.push(latin1('trailer\n<< /Root 1 0 R /Size 100 >>\nstartxref\n0\n%%EOF\n'))
  return new Uint8Array(Buffer.concat(parts))
}

/** A one-page PDF with `fields` small text fields named f0, f1, ... (written directly: pdf-lib's builder is quadratic). */
export function pdfWithFields(fields: number): Uint8Array {
  const ids = Array.from({ length: fields }, (_, i) => `${10 + i} 0 R`).join(' ')
  let pdf =
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [' +
    ids +
    '] /DA (/Helv 0 Tf 0 g) >> >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
    `3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [${ids}] >>\nendobj\n`
  for (let i = 0; i < fields; i++)
    pdf += `${10 + i} 0 obj\n<< /Type /Annot /Subtype /Widget /FT /Tx /T (f${i}) /Rect [10 10 15 15] /P 3 0 R >>\nendobj\n`
  pdf += 'trailer\n<< /Root 1 0 R >>\nstartxref\n0\n%%EOF\n'
  return new Uint8Array(Buffer.from(pdf, 'latin1'))
}

/** A flat-colour RGBA PNG of width x height (small on the wire, large in memory). */
export async function flatPng(width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp')
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer()
}
