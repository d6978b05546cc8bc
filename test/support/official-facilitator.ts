/**
 * The official x402 facilitator (x402Facilitator + @x402/evm ExactEvmScheme over viem) served over HTTP on
 * loopback with the facilitator API (/verify, /settle, /supported), settling on a local chain. Used to test
 * this server's remote-facilitator mode against the reference implementation.
 */
import { x402Facilitator } from '@x402/core/facilitator'
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { createWalletClient, http, publicActions, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { localBase } from '../../runtime/chain/usdc'

export interface OfficialFacilitator {
  url: string
  calls: Record<'verify' | 'settle' | 'supported', number>
  auth: string[]
  stop(): void
}

export function startOfficialFacilitator(rpcUrl: string, settlerKey: Hex): OfficialFacilitator {
  const account = privateKeyToAccount(settlerKey)
  const w = createWalletClient({
    chain: localBase(rpcUrl),
    transport: http(rpcUrl),
    account,
    pollingInterval: 20,
  }).extend(publicActions)
  const fac = registerExactEvmScheme(new x402Facilitator(), {
    signer: toFacilitatorEvmSigner({ ...w, address: account.address } as never),
    networks: 'eip155:8453',
  })
  const calls = { verify: 0, settle: 0, supported: 0 }
  const auth: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      auth.push(req.headers.get('authorization') ?? '')
      if (path === '/supported') {
        calls.supported++
        return Response.json(fac.getSupported())
      }
      const body = (await req.json()) as { paymentPayload: never; paymentRequirements: never }
      if (path === '/verify') {
        calls.verify++
        return Response.json(await fac.verify(body.paymentPayload, body.paymentRequirements))
      }
      if (path === '/settle') {
        calls.settle++
        return Response.json(await fac.settle(body.paymentPayload, body.paymentRequirements))
      }
      return new Response('not found', { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, calls, auth, stop: () => server.stop(true) }
}
