import { cheapChecks } from '../checks'
import { decodePayment, PaymentRefused } from '../wire'
import type { Facilitator, PaymentRequirements } from '../types'
import { ServiceError, type PaymentVerifier } from '../../sdk'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * `POST /api/v1/verify`: checks a payment against the caller's requirements with the same local checks and the
 * same chain simulation as the gate, without reserving or settling anything. Only this server's networks are
 * supported (the chains we can simulate on; with NETWORKS, the facilitator routes by the requirements' network).
 */
export function createVerifier(
  facilitator: Facilitator,
  networks: string[],
  nowS = () => Math.floor(Date.now() / 1000),
): PaymentVerifier {
  return {
    async verify({ x402Version, paymentPayload, paymentRequirements }) {
      const r = paymentRequirements as Partial<PaymentRequirements>
      const bad = (field: string, message: string) =>
        new ServiceError(422, 'INVALID_INPUT', `paymentRequirements.${field}: ${message}`, {
          details: [{ path: `/paymentRequirements/${field}`, message }],
        })
      if (r.scheme !== 'exact') throw bad('scheme', 'only "exact" is supported')
      const network = r.network
      if (typeof network !== 'string' || !networks.includes(network))
        throw bad('network', `supported here: ${networks.join(', ')}`)
      if (typeof r.amount !== 'string' || !/^\d{1,78}$/.test(r.amount))
        throw bad('amount', 'must be an integer string (atomic units)')
      if (typeof r.asset !== 'string' || !ADDRESS.test(r.asset)) throw bad('asset', 'must be a token address')
      if (typeof r.payTo !== 'string' || !ADDRESS.test(r.payTo)) throw bad('payTo', 'must be an address')
      if (typeof r.extra?.name !== 'string' || typeof r.extra?.version !== 'string')
        throw bad('extra', 'must carry the EIP-712 domain {name, version}')
      const req: PaymentRequirements = {
        scheme: 'exact',
        network,
        amount: r.amount,
        asset: r.asset,
        payTo: r.payTo,
        maxTimeoutSeconds: Number(r.maxTimeoutSeconds ?? 60),
        extra: { name: r.extra.name, version: r.extra.version },
      }
      if (x402Version !== 1 && x402Version !== 2)
        throw new ServiceError(422, 'INVALID_INPUT', 'x402Version must be 1 or 2', {
          details: [{ path: '/x402Version', message: 'must be 1 or 2' }],
        })
      try {
        const p = decodePayment(Buffer.from(JSON.stringify(paymentPayload)).toString('base64'), x402Version)
        await cheapChecks(p, req, nowS(), facilitator.hasCode)
        const v = await facilitator.verify(p, req)
        return {
          isValid: v.isValid,
          ...(v.invalidReason ? { invalidReason: v.invalidReason } : {}),
          payer: v.payer ?? p.payload.authorization.from,
        }
      } catch (e) {
        if (e instanceof PaymentRefused) {
          const from = (paymentPayload as { payload?: { authorization?: { from?: string } } })?.payload?.authorization
            ?.from
          return { isValid: false, invalidReason: e.reason, ...(typeof from === 'string' ? { payer: from } : {}) }
        }
        if (e instanceof ServiceError) throw e
        throw new ServiceError(503, 'PAYMENT_UNAVAILABLE', 'payment verification is unavailable right now', {
          retryable: true,
        })
      }
    },
  }
}
