import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema } from '../_lib/live-data'

const ns = (description: string) => t.Union([t.String(), t.Null()], { description })
const image = t.Union([t.Object({ source: t.String(), width: t.Integer(), height: t.Integer() }), t.Null()])

export default defineService({
  slug: 'wikipedia-summary',
  name: 'Wikipedia summary',
  description:
    'The lead summary of a Wikipedia article from the Wikimedia REST API (page/summary): title, short description, plain-text extract and its HTML, page type (standard, disambiguation, no-extract, mainpage), thumbnail and original image, coordinates, last-edit time, Wikidata id and the article URL. Redirects are followed; titles are case-sensitive after the first letter. Any language edition via `lang` (default en). A missing article is a 404 NOT_FOUND. Cached 1 h. Text CC BY-SA 4.0: attribute and link the article (see attribution).',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['wikipedia'],
  input: t.Object(
    {
      title: t.String({
        minLength: 1,
        maxLength: 255,
        description: 'Article title, e.g. "Alan Turing" (spaces or underscores).',
      }),
      lang: t.Optional(
        t.String({
          pattern: '^[a-z]{2,3}(-[a-z]{2,8})?$',
          maxLength: 12,
          default: 'en',
          description: 'Wikipedia language edition, e.g. en, de, fr, zh-yue (default en).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { page: 'title', article: 'title', query: 'title', q: 'title', language: 'lang' } },
  output: t.Object({
    title: t.String({ description: 'Canonical title (after redirects), spaces not underscores.' }),
    display_title: t.String({ description: 'Title as displayed (HTML tags removed).' }),
    type: t.Union([t.Literal('standard'), t.Literal('disambiguation'), t.Literal('no-extract'), t.Literal('mainpage')]),
    description: ns('Short description (Wikidata or local).'),
    extract: t.String({ description: 'Lead section as plain text.' }),
    extract_html: ns('Lead section as HTML.'),
    lang: t.String(),
    page_id: t.Union([t.Integer(), t.Null()]),
    url: t.String({ description: 'Desktop article URL.' }),
    mobile_url: ns('Mobile article URL.'),
    thumbnail: image,
    original_image: image,
    coordinates: t.Union([t.Object({ lat: t.Number(), lon: t.Number() }), t.Null()]),
    last_edited: ns('Time of the revision summarised, ISO 8601.'),
    wikidata_id: ns('Wikidata item, e.g. Q7251.'),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Alan Turing',
      input: { title: 'Alan Turing' },
      output: {
        title: 'Alan Turing',
        display_title: 'Alan Turing',
        type: 'standard',
        description: 'English computer scientist (1912–1954)',
        extract:
          'Alan Mathison Turing was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.',
        extract_html:
          '<p><b>Alan Mathison Turing</b> was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist.</p>',
        lang: 'en',
        page_id: 1208,
        url: 'https://en.wikipedia.org/wiki/Alan_Turing',
        mobile_url: 'https://en.m.wikipedia.org/wiki/Alan_Turing',
        thumbnail: {
          source:
            'https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Alan_Turing_Aged_16.jpg/320px-Alan_Turing_Aged_16.jpg',
          width: 320,
          height: 404,
        },
        original_image: {
          source: 'https://upload.wikimedia.org/wikipedia/commons/a/a1/Alan_Turing_Aged_16.jpg',
          width: 1023,
          height: 1291,
        },
        coordinates: null,
        last_edited: '2024-05-01T12:00:00Z',
        wikidata_id: 'Q7251',
        attribution: {
          source: 'Wikipedia, the free encyclopedia (Wikimedia REST API)',
          url: 'https://foundation.wikimedia.org/wiki/Policy:Terms_of_Use',
          license: 'CC BY-SA 4.0',
          terms: 'attribute Wikipedia and link the article; share alike',
        },
      },
    },
  ],
})
