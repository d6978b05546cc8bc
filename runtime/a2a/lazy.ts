/**
 * The A2A routes mounted at boot as thin forwards (as /mcp in runtime/lazy-routes.ts): ./routes.ts, the card and the
 * task store are built on the first request to them. The client address is taken here, where the socket is known.
 * @module a2a/lazy
 */
import { Elysia } from 'elysia'
import { lazyApp } from '../http/lazy-app'
import { contained } from '../http/contained'
import { A2A_PATH, CARD_PATH } from './paths'
import type { A2aDeps } from './run'

type ServerLike = { requestIP(r: Request): { address: string } | null } | null

export function lazyA2aRoutes(deps: A2aDeps, clientOf: (req: Request, server: ServerLike) => string, version: string) {
  const clients = new WeakMap<Request, string>()
  const forward = lazyApp(async () =>
    contained(
      (await import('./routes')).a2aRoutes(deps, (req) => clients.get(req) ?? clientOf(req, null), version),
      deps.log,
    ),
  )
  const to = ({ request, server }: { request: Request; server: ServerLike }) => {
    clients.set(request, clientOf(request, server))
    return forward(request)
  }
  const opts = { parse: 'none' as const, detail: { hide: true } }
  return new Elysia({ name: 'a2a-lazy' }).get(CARD_PATH, to, opts).post(A2A_PATH, to, opts)
}
