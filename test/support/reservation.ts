import type { Reservation } from '../../runtime/db/store'
import type { PaymentRequirements } from '../../runtime/pay/types'

/**
 * A ledger reservation for tests and benches: authorization `n` of payer `n` (both `n` in hex), a flat 1000-atomic
 * call valid until 2033; `o` overrides any field.
 */
export const reservation = (n: number, o: Partial<Reservation> = {}): Reservation => ({
  payer: '0x' + n.toString(16).padStart(40, '0'),
  nonce: '0x' + n.toString(16).padStart(64, '0'),
  slug: 's',
  tier: 'flat',
  amount: '1000',
  network: 'eip155:8453',
  requestId: 'r',
  validBefore: 2_000_000_000,
  x402Version: 2,
  payload: {},
  requirements: {},
  ...o,
})

/** The reservation the gate writes for the signed payment `raw` (a decoded PAYMENT-SIGNATURE) of `requirements`. */
export const reservationOf = (
  raw: Record<string, any>,
  requirements: PaymentRequirements,
  o: Partial<Reservation> = {},
): Reservation => {
  const a = raw.payload.authorization
  return reservation(0, {
    payer: a.from,
    nonce: a.nonce,
    amount: a.value,
    network: requirements.network,
    validBefore: Number(a.validBefore),
    payload: raw,
    requirements,
    ...o,
  })
}
