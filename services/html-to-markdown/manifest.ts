import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'html-to-markdown',
  name: 'HTML to Markdown',
  description:
    'Converts an HTML document or fragment (sent in the body; nothing is fetched) to Markdown with turndown on a linkedom DOM. <script>, <style>, <noscript>, <template>, <iframe>, <object>, <embed>, <svg>, <canvas> and <head> are removed with their content; javascript:, vbscript:, data: and file: URLs are dropped from links and images (the text is kept). GitHub Flavored Markdown extras: pipe tables (the first row is the header), ~~strikethrough~~ and [x] task check boxes. Defaults: ATX headings (#), "-" bullets, fenced code blocks, inline links, _emphasis_ and **strong**. Relative URLs are resolved against base_url when given. HTML up to 500,000 characters, elements nested at most 500 levels.',
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      html: t.String({
        maxLength: 500_000,
        description: 'The HTML (a full document or a fragment; at most 500,000 characters).',
      }),
      heading_style: t.Optional(
        t.Union([t.Literal('atx'), t.Literal('setext')], {
          default: 'atx',
          description: '"atx" (# Heading, default) or "setext" (underlined with === / --- for levels 1-2).',
        }),
      ),
      bullet_marker: t.Optional(
        t.Union([t.Literal('-'), t.Literal('*'), t.Literal('+')], {
          default: '-',
          description: 'Marker for unordered list items. Default "-".',
        }),
      ),
      code_block_style: t.Optional(
        t.Union([t.Literal('fenced'), t.Literal('indented')], {
          default: 'fenced',
          description: '"fenced" (``` with the language from class="language-x", default) or "indented" (4 spaces).',
        }),
      ),
      link_style: t.Optional(
        t.Union([t.Literal('inlined'), t.Literal('referenced')], {
          default: 'inlined',
          description: '"inlined" ([text](url), default) or "referenced" ([text][1] with the URLs listed at the end).',
        }),
      ),
      base_url: t.Optional(
        t.String({
          maxLength: 2000,
          description: 'Absolute http(s) URL against which relative link and image URLs are resolved. Not fetched.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { text: 'html', input: 'html' } },
  output: t.Object({
    markdown: t.String({ description: 'The Markdown (leading blank lines and trailing whitespace removed).' }),
    length: t.Integer({ description: 'Length of markdown in characters (UTF-16 code units).' }),
    title: t.Union([t.String(), t.Null()], {
      description: 'Text of the document <title>, or null when there is none.',
    }),
  }),
  examples: [
    {
      name: 'Article fragment',
      input: {
        html: '<h1>Release notes</h1><p>Version <strong>2.0</strong> is out. See <a href="/changelog">the changelog</a>.</p><ul><li>Faster</li><li>Smaller</li></ul><script>track()</script>',
        base_url: 'https://example.com/blog/',
      },
      output: {
        markdown:
          '# Release notes\n\nVersion **2.0** is out. See [the changelog](https://example.com/changelog).\n\n-   Faster\n-   Smaller',
        length: 116,
        title: null,
      },
    },
  ],
})
