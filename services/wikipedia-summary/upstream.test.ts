/** wikipedia-summary against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const wikipediaSummary = typed(manifest, handler)
const { up, ctx, failureForms } = recordedUpstreams()

describe('wikipedia-summary', () => {
  test('fields from the REST summary', async () => {
    const out = await wikipediaSummary({ title: 'Alan Turing' }, ctx())
    conforms('wikipedia-summary', out)
    expect(out).toMatchObject({
      title: 'Alan Turing',
      display_title: 'Alan Turing',
      type: 'standard',
      description: 'English computer scientist (1912–1954)',
      page_id: 1208,
      url: 'https://en.wikipedia.org/wiki/Alan_Turing',
      wikidata_id: 'Q7251',
      coordinates: null,
      last_edited: '2024-05-01T12:00:00Z',
    })
    expect(out.extract).toStartWith('Alan Mathison Turing was')
    expect(out.thumbnail).toEqual({
      source:
        'https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Alan_Turing_Aged_16.jpg/320px-Alan_Turing_Aged_16.jpg',
      width: 320,
      height: 404,
    })
    expect(out.attribution.license).toBe('CC BY-SA 4.0')
    expect(up.requests.at(-1)!.headers.get('user-agent')).toContain('x402-agent-api')
  })
  test('404 problem JSON: 404 NOT_FOUND', async () => {
    await serviceError(wikipediaSummary({ title: 'Nope Nope' }, ctx()), 404, 'NOT_FOUND')
  })
  test('bad lang and title: 422', async () => {
    await serviceError(wikipediaSummary({ title: 'x', lang: 'evil.com' }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(wikipediaSummary({ title: 'a|b' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('upstream failure forms', () =>
    failureForms('wiki', 'wikipedia', () => wikipediaSummary({ title: 'Ada Lovelace' }, ctx())))
})
