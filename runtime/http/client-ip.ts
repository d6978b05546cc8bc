/**
 * The client's address: the socket peer, or, when `trustedProxies` > 0, the address that many hops from the
 * right of X-Forwarded-For (the one our outermost trusted proxy saw). Forged left-most entries are ignored.
 */
export function clientAddress(
  socketIp: string | undefined,
  forwardedFor: string | null,
  trustedProxies: number,
): string {
  const peer = (socketIp ?? 'unknown').replace(/^::ffff:/, '')
  if (trustedProxies <= 0 || !forwardedFor) return peer
  const hops = forwardedFor
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const pick = hops[hops.length - trustedProxies]
  return pick ? pick.replace(/^::ffff:/, '') : peer
}
