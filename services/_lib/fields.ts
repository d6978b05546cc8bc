/**
 * Schema fields shared by several manifests. Kept free of heavy libraries: manifests load at boot, handlers load
 * on their first call.
 */
import { t } from '../../runtime/sdk'

export const MAX_URL_CHARS = 2048

/** The `url` field every web service takes. */
export const urlField = (description = 'The public http(s) URL to fetch.') =>
  t.String({ minLength: 1, maxLength: MAX_URL_CHARS, description })

/** CSV/TSV field delimiter. */
export const delimiterSchema = () =>
  t.Union([t.Literal('auto'), t.Literal(','), t.Literal('\t'), t.Literal(';'), t.Literal('|')], {
    default: 'auto',
    description:
      'Field delimiter: `auto` (guessed from the first rows among , TAB ; |; a single column defaults to ,), `,`, `\\t` (TSV), `;` or `|`.',
  })
