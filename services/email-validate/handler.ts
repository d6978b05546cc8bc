import { domainToASCII, domainToUnicode } from 'node:url'
import { handlerFor } from '../../runtime/sdk'
import { DISPOSABLE, FREE, ROLES } from './lists'
import manifest from './manifest'

/** RFC 5322 §3.2.3 dot-atom: atext runs joined by single dots. */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
/** RFC 1035/1123 LDH label (letters, digits, hyphens; no hyphen at either end; 1-63 characters). */
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/
const TLD = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/
const bytes = (s: string) => Buffer.byteLength(s, 'utf8')

/** The first rule the address breaks, or null. */
function check(email: string, at: number, local: string, domain: string, ascii: string): string | null {
  if (at < 0) return 'missing @'
  if (!local) return 'empty local part'
  if (!domain) return 'empty domain'
  if (local.startsWith('"')) return 'quoted local parts are not supported'
  if (/\s/.test(email)) return 'contains whitespace'
  if (domain.startsWith('[')) return 'address literals ([IP]) are not supported'
  if (bytes(local) > 64) return 'local part longer than 64 octets (RFC 5321 §4.5.3.1.1)'
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..'))
    return 'local part starts or ends with a dot, or has two dots in a row'
  if (!LOCAL.test(local))
    return local.includes('@') ? 'more than one @' : 'local part has a character outside the RFC 5322 dot-atom set'
  if (!ascii) return 'domain is not a valid host name'
  if (bytes(`${local}@${ascii}`) > 254) return 'longer than 254 octets (RFC 5321 path limit)'
  const labels = ascii.split('.')
  if (labels.length < 2) return 'domain needs at least two labels (a dot)'
  if (!labels.every((l) => LABEL.test(l)))
    return 'domain label is empty, longer than 63 characters, has a character other than letters, digits and hyphens, or starts/ends with a hyphen'
  if (!TLD.test(labels.at(-1)!)) return 'top-level domain must be 2+ letters'
  return null
}

export default handlerFor(manifest, ({ email }) => {
  const e = email.trim()
  const at = e.lastIndexOf('@')
  const local = at >= 0 ? e.slice(0, at) : e
  const domain = at >= 0 ? e.slice(at + 1).toLowerCase() : ''
  const ascii = domain && !domain.startsWith('[') ? domainToASCII(domain) : ''
  const reason = check(e, at, local, domain, ascii)
  const base = local.toLowerCase().split('+')[0]
  const plus = local.indexOf('+')
  return {
    email: e,
    valid_syntax: reason === null,
    reason,
    local,
    domain,
    domain_ascii: ascii,
    domain_unicode: ascii ? domainToUnicode(ascii) || domain : domain,
    normalized: at < 0 ? e : `${local}@${ascii || domain}`,
    disposable: DISPOSABLE.has(ascii),
    role_account: ROLES.has(base),
    free_provider: FREE.has(ascii),
    plus_tag: plus >= 0 ? local.slice(plus + 1) : null,
  }
})
