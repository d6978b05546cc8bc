import ui from './ui.js' with { type: 'text' }

/** The shared helpers module (/ui.js) as served. */
export const UI_JS = ui as unknown as string

/**
 * The URL the importing scripts (/site.js, /admin/admin.js) load ui.js from: versioned by its content, so a browser
 * that still holds an older ui.js (served `max-age=300`) fetches the one the importer was written for instead of
 * linking new code against old exports. Same origin: the CSP's script-src 'self' allows it.
 */
export const UI_URL = `/ui.js?v=${Bun.hash(UI_JS).toString(36)}`

const IMPORT = "from '/ui.js'"

/** An importing script as served: its `from '/ui.js'` points at UI_URL (throws when the script has no such import). */
export function importingUi(js: string): string {
  if (!js.includes(IMPORT)) throw new Error(`expected a script importing ${IMPORT}`)
  return js.replaceAll(IMPORT, `from '${UI_URL}'`)
}
