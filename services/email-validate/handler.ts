import { domainToASCII } from 'node:url'
import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

const DISPOSABLE = new Set('mailinator.com guerrillamail.com guerrillamail.net 10minutemail.com tempmail.com temp-mail.org yopmail.com trashmail.com sharklasers.com getnada.com dispostable.com maildrop.cc throwawaymail.com fakeinbox.com mintemail.com mohmal.com emailondeck.com tempail.com burnermail.io mailnesia.com spamgourmet.com discard.email 33mail.com tempr.email mytemp.email'.split(' '))
const FREE = new Set('gmail.com googlemail.com outlook.com hotmail.com live.com msn.com yahoo.com yahoo.co.uk ymail.com aol.com icloud.com me.com mac.com proton.me protonmail.com gmx.com gmx.de gmx.net web.de mail.com zoho.com yandex.com yandex.ru mail.ru qq.com 163.com 126.com naver.com fastmail.com tutanota.com hey.com'.split(' '))
const ROLES = new Set('admin administrator abuse billing contact dev devnull help hostmaster info it jobs legal mail mailer-daemon marketing media no-reply noreply news newsletter office postmaster press privacy root sales security support team webmaster hello careers hr accounts finance'.split(' '))
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/

function check(local: string, ascii: string, email: string): string | null {
  if (Buffer.byteLength(email) > 254) return 'longer than 254 octets'
  if (!local) return 'empty local part'
  if (Buffer.byteLength(local) > 64) return 'local part longer than 64 octets'
  if (!LOCAL.test(local)) return 'local part has characters or dots outside the dot-atom form'
  if (!ascii) return 'domain is not a valid host name'
  const labels = ascii.split('.')
  if (labels.length < 2) return 'domain needs at least two labels'
  if (!labels.every((l) => LABEL.test(l))) return 'domain label is empty, too long, or starts/ends with a hyphen'
  if (!/^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/.test(labels.at(-1)!)) return 'top-level domain must be letters (2+)'
  return null
}

export default handlerFor(manifest, ({ email }) => {
  const e = email.trim()
  const at = e.lastIndexOf('@')
  const local = at > 0 ? e.slice(0, at) : e.includes('@') ? '' : e
  const domain = at >= 0 ? e.slice(at + 1).toLowerCase() : ''
  const ascii = domain ? domainToASCII(domain) : ''
  const reason = at < 0 ? 'missing @' : check(local, ascii, e)
  const base = local.toLowerCase().split('+')[0]
  return {
    email: e, valid_syntax: reason === null, reason, local, domain, domain_ascii: ascii, normalized: at < 0 ? e : `${local}@${domain}`,
    disposable: DISPOSABLE.has(ascii), role_account: ROLES.has(base), free_provider: FREE.has(ascii), plus_tag: local.includes('+') ? local.slice(local.indexOf('+') + 1) : null,
  }
})
