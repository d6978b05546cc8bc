/**
 * Bundled domain and mailbox lists for email-validate (all lower-case ASCII). They are deliberately small and
 * static: no network lookups, deterministic answers.
 */

/**
 * Throwaway / temporary inbox providers: the best-known services and their main alias domains, taken from the
 * public disposable-email-domains project (github.com/disposable-email-domains/disposable-email-domains, CC0).
 */
export const DISPOSABLE = new Set(
  `10minutemail.com 10minutemail.net 20minutemail.com 33mail.com anonbox.net burnermail.io discard.email dispostable.com
  emailondeck.com fakeinbox.com getairmail.com getnada.com guerrillamail.biz guerrillamail.com guerrillamail.de guerrillamail.info
  guerrillamail.net guerrillamail.org guerrillamailblock.com grr.la harakirimail.com incognitomail.org jetable.org mailcatch.com
  maildrop.cc mailinator.com mailinator.net mailinator2.com mailnesia.com mailsac.com mintemail.com mohmal.com mytemp.email
  mytrashmail.com nada.email sharklasers.com spam4.me spamgourmet.com spambox.us spamex.com temp-mail.io temp-mail.org tempail.com
  tempinbox.com tempmail.com tempmail.net tempmailo.com tempr.email throwawaymail.com trash-mail.com trashmail.com trashmail.de
  trashmail.net wegwerfmail.de yopmail.com yopmail.fr yopmail.net`.split(/\s+/),
)

/** Free consumer mailbox providers (webmail anyone can sign up for). */
export const FREE = new Set(
  `gmail.com googlemail.com outlook.com hotmail.com hotmail.co.uk hotmail.fr live.com msn.com yahoo.com yahoo.co.uk yahoo.fr
  yahoo.co.jp ymail.com rocketmail.com aol.com icloud.com me.com mac.com proton.me protonmail.com pm.me gmx.com gmx.de gmx.net
  web.de mail.com zoho.com yandex.com yandex.ru mail.ru inbox.ru list.ru bk.ru qq.com 163.com 126.com sina.com naver.com
  daum.net fastmail.com tutanota.com tuta.io hey.com laposte.net orange.fr free.fr libero.it seznam.cz o2.pl wp.pl`.split(
    /\s+/,
  ),
)

/**
 * Role (non-personal) mailboxes: the RFC 2142 names (info, marketing, sales, support, abuse, noc, security,
 * postmaster, hostmaster, usenet, news, webmaster, www, uucp, ftp) plus common team aliases.
 */
export const ROLES = new Set(
  `abuse accounting accounts admin administrator all billing careers compliance contact customerservice customer-service dev
  devnull dns enquiries finance ftp help helpdesk hello hostmaster hr info inquiries it jobs legal mail mailer-daemon marketing
  media newsletter news no-reply noc noreply office ops orders postmaster press privacy recruitment root sales security service
  staff support sysadmin team tech uucp usenet webmaster www`.split(/\s+/),
)
