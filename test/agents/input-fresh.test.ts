/**
 * A paid call's body is parsed for it alone, so its validation canonicalises it in place (`fresh`: no structuredClone
 * first) and skips the defaults' walk when the schema declares none: the input handed to the handler and the ignored
 * fields are the same as the copying path's, for every service's examples and for a body sent with aliases; the
 * copying path leaves its caller's body untouched.
 */
import { describe, expect, test } from 'bun:test'
import { entries } from '../support/entries'
import { prepareInputReport } from '../../runtime/input/validate'

const bodies = entries.flatMap((e) =>
  e.manifest.examples.map((x) => ({ slug: e.manifest.slug, schema: e.manifest.input, body: x.input })),
)

describe('validating a fresh body in place', () => {
  test('gives what the copying path gives, for every example of every service', () => {
    expect(bodies.length).toBeGreaterThan(100)
    for (const { slug, schema, body } of bodies) {
      const text = JSON.stringify(body)
      const copied = prepareInputReport(schema, JSON.parse(text))
      const fresh = prepareInputReport(schema, JSON.parse(text), true)
      expect({ slug, ...fresh }).toEqual({ slug, ...copied })
    }
  })

  test('an aliased field and an unknown one: the same canonical input and ignored list; the copy leaves the body as sent', () => {
    const apr = entries.find((e) => e.manifest.slug === 'apr-apy-converter')!.manifest
    const sent = { rate: 0.05, mode: 'TO_APY', nonsense: 1 }
    const copy = structuredClone(sent)
    const copied = prepareInputReport(apr.input, sent)
    expect(sent).toEqual(copy) // untouched
    const fresh = prepareInputReport(apr.input, structuredClone(sent), true)
    expect(fresh).toEqual(copied)
    expect(fresh.ignored).toContain('nonsense')
    expect(fresh.input).toMatchObject({ rate: 0.05, direction: 'apr_to_apy' })
  })

  test('a schema without defaults and one with them: absent fields filled only where a default is declared', () => {
    const hash = entries.find((e) => e.manifest.slug === 'hash-digest')!.manifest
    const { input } = prepareInputReport(hash.input, { text: 'x' }, true)
    expect(input).toMatchObject({ text: 'x', algo: 'sha256' })
  })
})
