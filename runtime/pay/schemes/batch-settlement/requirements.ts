import type { PaymentRequirements } from '@x402/core/types'
import type { Hex } from 'viem'

/**
 * The payer's timed-withdrawal delay our channels ask for (the spec allows 15 min to 30 days). A payer gets unspent
 * funds back at once by a cooperative refund; the delay only matters when this server does not cooperate, and it is
 * how long this server may be down before a payer can withdraw charges not yet claimed. One day covers an outage;
 * the claim engine watches for withdrawals every minute.
 */
export const DEFAULT_WITHDRAW_DELAY_S = 86_400

/**
 * The `batch-settlement` accepts entry offered beside an `exact` one: the same network, amount (the price, or the
 * tier's ceiling), asset, payTo and timeout, with the spec's `extra` (receiverAuthorizer, withdrawDelay, the token's
 * EIP-712 name and version) and `minDeposit`, which the official client reads.
 */
export function channelRequirements(
  exact: Pick<PaymentRequirements, 'network' | 'amount' | 'asset' | 'payTo' | 'maxTimeoutSeconds'> & {
    extra: { name?: unknown; version?: unknown }
  },
  o: { receiverAuthorizer: Hex; minDeposit: bigint; withdrawDelay?: number },
): PaymentRequirements {
  return {
    scheme: 'batch-settlement',
    network: exact.network,
    amount: exact.amount,
    asset: exact.asset,
    payTo: exact.payTo,
    maxTimeoutSeconds: exact.maxTimeoutSeconds,
    extra: {
      receiverAuthorizer: o.receiverAuthorizer,
      withdrawDelay: o.withdrawDelay ?? DEFAULT_WITHDRAW_DELAY_S,
      name: exact.extra.name,
      version: exact.extra.version,
      minDeposit: o.minDeposit.toString(),
    },
  }
}
