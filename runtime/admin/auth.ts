import { timingSafeEqual, createHash } from 'node:crypto'

/** The session cookie; scoped to /admin so no other route ever sees it (its value: see session.ts). */
export const SESSION_COOKIE = 'admin_session'

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()

/** Compares a presented secret with the token in constant time (both hashed first, so lengths never leak). */
export function tokenMatches(presented: string | null | undefined, token: string): boolean {
  if (!presented || !token) return false
  return timingSafeEqual(digest(presented), digest(token))
}

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim()
  }
  return null
}

/** True when the request arrived over https (directly, or through a trusted proxy that says so). */
export function isHttps(req: Request, trustedProxies: number): boolean {
  if (new URL(req.url).protocol === 'https:') return true
  return (
    trustedProxies > 0 && (req.headers.get('x-forwarded-proto') ?? '').split(',')[0].trim().toLowerCase() === 'https'
  )
}

export function sessionCookie(id: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`
}

export function clearedCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=0${secure ? '; Secure' : ''}`
}
