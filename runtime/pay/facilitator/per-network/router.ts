import type { Facilitator, FacilitatorHealth } from '../../types'

/**
 * One Facilitator over several networks: verify/settle/status go to the backend of `req.network` (the gate has
 * already matched the payment to that network's requirements; an unknown network throws, so the gate fails closed).
 * `balance` has no network: it answers the lowest balance among the networks whose token is `asset` (the payer
 * guard also sums in-flight amounts across networks), so the check can only be stricter than per network.
 * `hasCode` is true when `from` has code on any network (the chain of the payment then decides).
 */
export function createNetworkRouter(
  byNetwork: Record<string, Facilitator>,
  assets: Record<string, string>,
): Facilitator {
  const entries = Object.entries(byNetwork)
  const pick = (network: string): Facilitator => {
    const f = byNetwork[network]
    if (!f) throw new Error(`no payment backend for network ${network}`)
    return f
  }
  const withBalance = entries.filter(([, f]) => f.balance)
  const withCode = entries.filter(([, f]) => f.hasCode)
  return {
    kind: entries.every(([, f]) => f.kind === 'local') ? 'local' : 'remote',
    verify: async (p, req) => pick(req.network).verify(p, req),
    settle: async (p, req, onSubmitted) => pick(req.network).settle(p, req, onSubmitted),
    status: async (tx, p, req, receivedAtMs) => pick(req.network).status(tx, p, req, receivedAtMs),
    ...(withBalance.length === entries.length
      ? {
          async balance(payer, asset) {
            const on = withBalance.filter(([n]) => assets[n]?.toLowerCase() === asset.toLowerCase())
            if (!on.length) throw new Error(`no network pays in ${asset}`)
            const all = await Promise.all(on.map(([, f]) => f.balance!(payer, asset)))
            return all.reduce((a, b) => (b < a ? b : a))
          },
        }
      : {}),
    ...(withCode.length
      ? {
          async hasCode(address) {
            const all = await Promise.all(withCode.map(([, f]) => f.hasCode!(address).catch(() => false)))
            return all.some(Boolean)
          },
        }
      : {}),
    health(): FacilitatorHealth {
      const each: Record<string, FacilitatorHealth> = {}
      for (const [n, f] of entries) each[n] = f.health?.() ?? { ok: true, canPay: true }
      const all = Object.values(each)
      const down = Object.keys(each).filter((n) => !each[n].ok || !each[n].canPay)
      return {
        ok: all.every((h) => h.ok),
        canPay: all.every((h) => h.canPay),
        ...(down.length ? { detail: `degraded on ${down.join(', ')}` } : {}),
        networks: each,
      }
    },
    async close() {
      await Promise.all(entries.map(([, f]) => f.close?.()))
    },
  }
}
