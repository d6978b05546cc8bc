/**
 * A loopback web site for the web-reader services (articles, feeds, redirects, error pages; files in
 * test/net/fixtures), reached through the real safe fetcher. Shared by services/<slug>/web.test.ts.
 */
import { afterAll, expect } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ServiceContext, TSchema } from '../../runtime/sdk'
import { issues } from '../../runtime/input/validate'
import { ctxWith, html, loopbackFetch, serve } from '../net/support'

/** A file of test/net/fixtures as text. */
export const fx = (name: string) => readFileSync(join(import.meta.dir, '..', 'net', 'fixtures', name), 'utf8')
export const ARTICLE = fx('article.html')

/** Starts the site for one test file (stopped after it); `ctx()` fetches through the real safe fetcher. */
export function loopbackSite() {
  const site = serve((_req, url) => {
    switch (url.pathname) {
      case '/post':
        return html(ARTICLE)
      case '/moved':
        return Response.redirect('/post', 301)
      case '/plain':
        return new Response('Just some plain text.\n\nTwo paragraphs here.', {
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        })
      case '/empty':
        return html('<html><head><title>Empty</title></head><body><script>render()</script></body></html>')
      case '/short':
        return html(
          '<html><head><title>Short</title></head><body><nav>Menu</nav><p>Only a short note here.</p><footer>Footer</footer></body></html>',
        )
      case '/pdf':
        return new Response('%PDF-1.4', { headers: { 'content-type': 'application/pdf' } })
      case '/gone':
        return html('<h1>Gone</h1>', 410)
      case '/down':
        return html('<h1>Oops</h1>', 503)
      case '/rss':
        return new Response(fx('rss.xml'), { headers: { 'content-type': 'application/rss+xml' } })
      case '/atom':
        return new Response(fx('atom.xml'), { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } })
      case '/rdf':
        return new Response(fx('rdf.xml'), { headers: { 'content-type': 'application/rdf+xml' } })
      case '/not-feed':
        return new Response('<?xml version="1.0"?><note><to>x</to></note>', {
          headers: { 'content-type': 'application/xml' },
        })
      case '/broken-xml':
        return new Response('<?xml version="1.0"?><rss><channel><title>x</title></rss>', {
          headers: { 'content-type': 'application/xml' },
        })
      case '/bomb':
        return new Response(
          '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><rss version="2.0"><channel><title>&c;</title><item><title>t</title></item></channel></rss>',
          { headers: { 'content-type': 'application/xml' } },
        )
      case '/no-links':
        return html('<html><body><p>Nothing to follow.</p></body></html>')
      default:
        return html('<p>root</p>')
    }
  })
  afterAll(() => site.stop())
  const ctx = (): ServiceContext => ctxWith({ fetch: loopbackFetch([site]) })
  return { site, ctx }
}

/** Asserts an answer matches an output schema. */
export const conforms = (schema: TSchema, out: unknown) => expect(issues(schema, out)).toEqual([])
