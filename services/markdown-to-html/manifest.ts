import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'markdown-to-html',
  name: 'Markdown to HTML (sanitized)',
  description:
    'Renders Markdown (CommonMark with GitHub extensions by default: tables, strikethrough, task lists, autolinks; parsed by marked) to HTML and sanitizes it with sanitize-html, so the result is safe to embed: no <script>, <style>, <iframe>, forms or other active content, no event-handler (on*) or style attributes, and link/image URLs limited to http, https, mailto and tel (or relative) — javascript:, data: and vbscript: URLs are dropped. Raw HTML inside the Markdown is sanitized the same way (raw_html "sanitize", default) or shown as text ("escape"). Also lists the headings. Markdown up to 500,000 characters; block quotes and lists nested at most 100 levels, lines indented at most 400 columns.',
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      markdown: t.String({ maxLength: 500_000, description: 'The Markdown source (at most 500,000 characters).' }),
      gfm: t.Optional(
        t.Boolean({
          default: true,
          description:
            'GitHub Flavored Markdown extensions (tables, ~~strikethrough~~, task lists, bare-URL autolinks). Default true.',
        }),
      ),
      breaks: t.Optional(
        t.Boolean({
          default: false,
          description: 'Turn single line breaks inside paragraphs into <br> (as in GitHub comments). Default false.',
        }),
      ),
      raw_html: t.Optional(
        t.Union([t.Literal('sanitize'), t.Literal('escape')], {
          default: 'sanitize',
          description:
            '"sanitize" (default): raw HTML in the Markdown is kept after sanitizing; "escape": raw HTML is shown as literal text.',
        }),
      ),
      images: t.Optional(
        t.Boolean({
          default: true,
          description:
            'Keep <img> elements (http/https/relative src only). false removes every image, e.g. to avoid tracking pixels. Default true.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { md: 'markdown', text: 'markdown', input: 'markdown' } },
  output: t.Object({
    html: t.String({ description: 'The sanitized HTML fragment (no <html>/<body> wrapper).' }),
    length: t.Integer({ description: 'Length of html in characters (UTF-16 code units).' }),
    headings: t.Array(
      t.Object({
        level: t.Integer({ minimum: 1, maximum: 6, description: 'Heading level 1-6.' }),
        text: t.String({ description: 'Plain text of the heading.' }),
      }),
      { description: 'The document headings in order.' },
    ),
  }),
  examples: [
    {
      name: 'Heading, emphasis and a dangerous link',
      input: {
        markdown: '# Hello\n\nSome *emphasis* and [a link](https://example.com) and [bad](javascript:alert(1)).',
      },
      output: {
        html: '<h1>Hello</h1>\n<p>Some <em>emphasis</em> and <a href="https://example.com">a link</a> and <a>bad</a>.</p>\n',
        length: 106,
        headings: [{ level: 1, text: 'Hello' }],
      },
    },
  ],
})
