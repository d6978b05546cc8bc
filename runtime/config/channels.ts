/** Payment channels (x402 batch-settlement, docs/channels.md): claim pace and threshold, and the smallest deposit. */
import { type Reader, variable } from './declare'
import { isPrivateKey } from './parse'
import type { Config } from './types'

export const CHANNEL_CLAIM_INTERVAL_S = variable({
  name: 'CHANNEL_CLAIM_INTERVAL_S',
  default: 3600,
  min: 1,
  concern: 'payment',
  description: 'a charged voucher waits at most this many seconds for its claim',
})
export const CHANNEL_CLAIM_THRESHOLD_USD = variable({
  name: 'CHANNEL_CLAIM_THRESHOLD_USD',
  default: 0.25,
  min: 0.000001,
  valid: 'at most 6 decimals',
  concern: 'payment',
  description:
    'a payer’s charges not yet claimed (over all its channels on a network) that trigger a claim at once: what this server can lose to one payer if its database is lost before the claim lands',
})
export const CHANNEL_MIN_DEPOSIT_USD = variable({
  name: 'CHANNEL_MIN_DEPOSIT_USD',
  default: 1,
  min: 0.000001,
  valid: 'at most 6 decimals',
  concern: 'payment',
  description:
    'the smallest channel deposit accepted, announced as `extra.minDeposit` (deposit + claim + sweep gas stay under 1 % of it at Base’s floor fee)',
})

export const CHANNEL_RECEIVER_AUTHORIZER_KEY = variable({
  name: 'CHANNEL_RECEIVER_AUTHORIZER_KEY',
  secret: true,
  concern: 'payment',
  valid: 'a 32-byte hex key',
  defaultText: "derived from each network's first settler key",
  description:
    'signs the claims and refunds of payment channels; its address is the `receiverAuthorizer` bound into every channel, so it must outlive settler key rotations: set it before rotating settler keys, and on every instance sharing `DATABASE_URL` (off the dev chain, self-facilitated channels are off without it there; docs/channels.md)',
})

export const channelVariables = [
  CHANNEL_CLAIM_INTERVAL_S,
  CHANNEL_CLAIM_THRESHOLD_USD,
  CHANNEL_MIN_DEPOSIT_USD,
  CHANNEL_RECEIVER_AUTHORIZER_KEY,
]

export function readChannels(r: Reader): Pick<Config, 'channels'> {
  const channels = {
    claimIntervalS: r.number(CHANNEL_CLAIM_INTERVAL_S),
    claimThresholdUsd: r.number(CHANNEL_CLAIM_THRESHOLD_USD),
    minDepositUsd: r.number(CHANNEL_MIN_DEPOSIT_USD),
    receiverAuthorizerKey: r.text(CHANNEL_RECEIVER_AUTHORIZER_KEY),
  }
  const key = channels.receiverAuthorizerKey
  if (key && !isPrivateKey(key)) r.problems.push('CHANNEL_RECEIVER_AUTHORIZER_KEY must be a 32-byte hex key')
  if (key && !key.startsWith('0x')) channels.receiverAuthorizerKey = `0x${key}`
  if (Number(channels.minDepositUsd.toFixed(6)) !== channels.minDepositUsd)
    r.problems.push('CHANNEL_MIN_DEPOSIT_USD has at most 6 decimals')
  if (Number(channels.claimThresholdUsd.toFixed(6)) !== channels.claimThresholdUsd)
    r.problems.push('CHANNEL_CLAIM_THRESHOLD_USD has at most 6 decimals')
  return { channels }
}
