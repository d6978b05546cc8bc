/**
 * The secret and realm MPP challenge ids are bound to (HMAC-SHA256 over realm|method|intent|request|expires|...):
 * MPP_SECRET_KEY and MPP_REALM, or, unset, derived so that every instance of one deployment agrees.
 * @module pay/schemes/mpp/secret
 */
import { createHmac } from 'node:crypto'
import type { Config } from '../../../config'
import { usesDevChain } from '../../../config'
import { settlerKeys } from '../../../config/parse'

export interface MppKeys {
  secretKey: string
  realm: string
  /** Where the secret came from, for the boot log (never the secret). */
  source: 'MPP_SECRET_KEY' | 'derived from the settler key' | 'dev chain (fixed development key)'
}

/**
 * MPP_SECRET_KEY; unset: an HMAC of the first settler key (secret, and the same on every instance that settles with
 * it); on the dev chain a fixed development key (its money is not real). Null: no secret to bind challenges to (a
 * remote-facilitated server without MPP_SECRET_KEY), so no MPP challenge is offered.
 */
export function mppKeys(config: Config): MppKeys | null {
  const realm = config.mpp.realm || realmOf(config.provider.apiBase)
  if (config.mpp.secretKey) return { secretKey: config.mpp.secretKey, realm, source: 'MPP_SECRET_KEY' }
  const settler = config.networks.flatMap((n) => settlerKeys(n.settlerPrivateKey))[0]
  if (settler)
    return {
      secretKey: createHmac('sha256', settler).update('mpp challenge ids').digest('base64url'),
      realm,
      source: 'derived from the settler key',
    }
  if (usesDevChain(config))
    return {
      secretKey: 'dev-chain-mpp-challenge-key-not-secret-0001',
      realm,
      source: 'dev chain (fixed development key)',
    }
  return null
}

function realmOf(apiBase: string): string {
  try {
    return new URL(apiBase).host || 'localhost'
  } catch {
    return 'localhost'
  }
}
