import type { createRemoteFacilitator } from './remote'
import { createFacilitatorList, type BreakerOptions } from './remote-list'
import type { Logger } from '../../sdk'
import type { Facilitator } from '../types'

type Remote = ReturnType<typeof createRemoteFacilitator>

/** A network's remote facilitators, as built by remote-setup.ts (tried in order, behind breakers). */
export interface RemoteNetwork {
  members: Remote[]
  supported(): ReturnType<ReturnType<typeof createFacilitatorList>['supported']>
  /** The breakers' settings, for the list over the members that run channels. */
  breakers: BreakerOptions
  /** The network's RPC URL (RPC_URL, or RPC_URL_<id> with NETWORKS), when set. */
  rpcUrl?: string
}

/** The remote facilitators of a network that list `batch-settlement` for it in /supported. */
export interface RemoteChannels {
  network: string
  /** Those members only, tried in order behind their own breakers. */
  remote: Pick<Facilitator, 'verify' | 'settle'>
  /**
   * The `extra.receiverAuthorizer` the first of them advertises (unless ours signs, members advertising another one
   * are left out).
   */
  advertised?: string
  rpcUrl?: string
}

/**
 * Reads /supported of a network's remote facilitators (payment channels, docs/channels.md): the members that list
 * {x402Version 2, scheme 'batch-settlement', network}, or null when none does; throws when none answered (the
 * caller tries again later).
 */
export async function remoteChannels(
  network: string,
  r: RemoteNetwork,
  /** Our own receiver authorizer signs (CHANNEL_RECEIVER_AUTHORIZER_KEY): every listing member will do. */
  oursSigns: boolean,
): Promise<RemoteChannels | null> {
  const all = await r.supported()
  if (all.every((s) => s.error)) throw new Error(`no facilitator answered /supported for ${network}: ${all[0]?.error}`)
  const kinds = all.map((s) =>
    s.kinds?.find((k) => k.x402Version === 2 && k.scheme === 'batch-settlement' && k.network === network),
  )
  const first = kinds.find(Boolean)
  if (!first) return null
  const advertised = typeof first.extra?.receiverAuthorizer === 'string' ? first.extra.receiverAuthorizer : undefined
  const same = (a: unknown) => String(a ?? '').toLowerCase() === String(advertised ?? '').toLowerCase()
  const members = r.members.filter((_, i) => kinds[i] && (oursSigns || same(kinds[i]?.extra?.receiverAuthorizer)))
  return {
    network,
    remote: createFacilitatorList(members, r.breakers),
    ...(advertised ? { advertised } : {}),
    ...(r.rpcUrl ? { rpcUrl: r.rpcUrl } : {}),
  }
}

/**
 * At boot: /supported of every remote network (those in `skip` have a settler), each read at most `timeoutMs`.
 * `found`: the networks whose facilitators list `batch-settlement`; `pending`: those whose facilitators did not answer
 * (read again later, `retryRemoteChannels`). A network whose facilitators do not list it is logged and has no channels.
 */
export async function remoteChannelsAtBoot(
  remotes: Record<string, RemoteNetwork>,
  o: { skip: string[]; oursSigns: boolean; log: Logger; timeoutMs?: number },
): Promise<{ found: Record<string, RemoteChannels>; pending: Record<string, RemoteNetwork> }> {
  const found: Record<string, RemoteChannels> = {}
  const pending: Record<string, RemoteNetwork> = {}
  const nets = Object.entries(remotes).filter(([n]) => !o.skip.includes(n))
  await Promise.all(
    nets.map(async ([network, r]) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error('/supported did not answer in time')), o.timeoutMs ?? 5_000)
      })
      try {
        const listing = await Promise.race([remoteChannels(network, r, o.oursSigns), late])
        if (listing) found[network] = listing
        else notListed(network, o.log)
      } catch (e) {
        pending[network] = r
        o.log.warn(
          'no payment channels on this network yet: its facilitators did not answer /supported; asking again',
          {
            network,
            error: (e as Error).message.slice(0, 200),
          },
        )
      } finally {
        clearTimeout(timer)
      }
    }),
  )
  return { found, pending }
}

const notListed = (network: string, log: Logger) =>
  log.info('no payment channels on this network: its facilitators do not list batch-settlement', { network })

/**
 * Asks the facilitators of `pending` networks for /supported again (after 1 s, then doubling up to 60 s) until they
 * answer: `found` gets the networks that list `batch-settlement`. Returns the cancel (shutdown).
 */
export function retryRemoteChannels(
  pending: Record<string, RemoteNetwork>,
  o: { oursSigns: boolean; log: Logger; found(r: RemoteChannels): Promise<void>; firstMs?: number },
): () => void {
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let cancelled = false
  const attempt = (network: string, r: RemoteNetwork, waitMs: number) => {
    const t = setTimeout(async () => {
      timers.delete(t)
      if (cancelled) return
      let listing: RemoteChannels | null
      try {
        listing = await remoteChannels(network, r, o.oursSigns)
      } catch {
        if (!cancelled) attempt(network, r, Math.min(waitMs * 2, 60_000))
        return
      }
      if (cancelled) return
      if (!listing) return notListed(network, o.log)
      await o.found(listing).catch((e) =>
        o.log.warn('payment channels on this network could not be built', {
          network,
          error: String(e).slice(0, 200),
        }),
      )
    }, waitMs)
    t.unref?.()
    timers.add(t)
  }
  for (const [network, r] of Object.entries(pending)) attempt(network, r, o.firstMs ?? 1_000)
  return () => {
    cancelled = true
    for (const t of timers) clearTimeout(t)
  }
}
