/**
 * The web family stays linear on pages of many small elements: Readability over linkedom took 45 s on 1 MB of
 * list items (it counts elements with getElementsByTagName('*'), empty in linkedom, so its own cap never applied);
 * pages over READABILITY_MAX_ELEMENTS now get the cleaned-body extraction.
 */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth('url-word-count', 'a page of list items', () => ({ url: '{{web}}/page' }), 40_000, {
  fixture: (n) => ({ web: { '/page': { text: `<html><body><ul>${'<li>x'.repeat(n)}</ul></body></html>` } } }),
  outcomes: ['ok'],
})
hostileGrowth('read-url', 'a page of bold words', () => ({ url: '{{web}}/page' }), 40_000, {
  fixture: (n) => ({ web: { '/page': { text: `<html><body><p>${'<b>x</b> '.repeat(n)}</p></body></html>` } } }),
  outcomes: ['ok'],
})
