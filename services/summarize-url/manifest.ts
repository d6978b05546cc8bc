import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'summarize-url',
  name: 'Summarize URL',
  description:
    'Fetches a web page or document safely (public addresses only, at most 10 MiB; HTML, plain text or PDF), extracts its readable ' +
    'text, and summarizes it: a summary and key points. The model only sees the extracted text, never the URL to fetch. Text beyond ' +
    '40,000 characters is cut (`truncated: true`). `length` is short (2-3 sentences), medium (a paragraph, default) or long (several paragraphs). ' +
    'Differs from summarize-content: it takes a URL and fetches it; use summarize-content (tiered) for text you already have.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.01),
  model: 'gpt-4.1-mini',
  needs: ['model', 'fetch'],
  timeoutMs: 40_000,
  input: t.Object(
    {
      url: t.String({ minLength: 1, maxLength: 2_048, description: 'http(s) URL of the page.' }),
      length: t.Optional(t.Union([t.Literal('short'), t.Literal('medium'), t.Literal('long')], { default: 'medium' })),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { link: 'url', size: 'length' },
    values: {
      length: { brief: 'short', tldr: 'short', detailed: 'long', full: 'long', normal: 'medium', standard: 'medium' },
    },
  },
  output: t.Object({
    url: t.String({ description: 'Final URL after redirects.' }),
    title: t.String(),
    summary: t.String(),
    key_points: t.Array(t.String()),
    word_count: t.Integer({ description: 'Words in the extracted text (before truncation).' }),
    truncated: t.Boolean(),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Article',
      input: { url: 'https://example.com/blog/post', length: 'short' },
      output: {
        url: 'https://example.com/blog/post',
        title: 'Post title',
        summary: 'The post explains ...',
        key_points: ['First point', 'Second point'],
        word_count: 812,
        truncated: false,
        model: 'gpt-4.1-mini',
        tokens_used: 1320,
      },
    },
  ],
})
