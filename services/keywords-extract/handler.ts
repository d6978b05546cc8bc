import { handlerFor, t } from '../../runtime/sdk'
import { askJson, dataBlock } from '../_lib/model-utility'
import manifest from './manifest'

const TYPES = ['person', 'organization', 'location', 'product', 'event', 'date', 'other'] as const

const SYSTEM =
  'You extract keywords from a text. keywords: the most important terms and key phrases as they appear in the text, each with ' +
  'a relevance from 0 to 1, most relevant first, no more than the maximum given. topics: 1-5 short topic names. entities: named ' +
  `entities with a type among ${TYPES.join(', ')}. tags: 3-10 short lowercase tags suitable for indexing.`

const Answer = t.Object({
  keywords: t.Array(t.Object({ term: t.String({ minLength: 1 }), relevance: t.Number({ minimum: 0, maximum: 1 }) }), {
    maxItems: 100,
  }),
  topics: t.Array(t.String(), { maxItems: 20 }),
  entities: t.Array(t.Object({ text: t.String(), type: t.Union(TYPES.map((x) => t.Literal(x))) }), { maxItems: 200 }),
  tags: t.Array(t.String(), { maxItems: 30 }),
})

export default handlerFor(manifest, async ({ text, max_keywords = 10 }, ctx) => {
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Maximum keywords', String(max_keywords)],
      ['Text', text],
    ]),
    schema: Answer,
    maxTokens: 2048,
  })
  const keywords = [...r.value.keywords].sort((a, b) => b.relevance - a.relevance).slice(0, max_keywords)
  const tags = [...new Set(r.value.tags.map((x) => x.trim().toLowerCase()).filter(Boolean))]
  return {
    keywords,
    topics: r.value.topics,
    entities: r.value.entities,
    tags,
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
