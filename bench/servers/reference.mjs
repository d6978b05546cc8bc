// The official reference gate for comparison: @x402/express paymentMiddleware on Node, with a local facilitator
// (@x402/evm ExactEvmScheme over viem) settling on the same chain. Serves the same utility (sha256 hash digest).
import express from 'express'
import { createHash } from 'node:crypto'
import { paymentMiddleware, x402ResourceServer } from '@x402/express'
import { x402Facilitator } from '@x402/core/facilitator'
import { registerExactEvmScheme as registerFacilitator } from '@x402/evm/exact/facilitator'
import { ExactEvmScheme } from '@x402/evm/exact/server'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { createWalletClient, defineChain, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

const { RPC_URL, SETTLER_PRIVATE_KEY, PAY_TO } = process.env
const chain = defineChain({
  id: 8453,
  name: 'Base (local)',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [RPC_URL] } },
})
const account = privateKeyToAccount(SETTLER_PRIVATE_KEY)
const w = createWalletClient({ chain, transport: http(RPC_URL), account, pollingInterval: 20 }).extend(publicActions)
const facilitator = registerFacilitator(new x402Facilitator(), {
  signer: toFacilitatorEvmSigner({ ...w, address: account.address }),
  networks: 'eip155:8453',
})
const server = new x402ResourceServer({
  verify: (p, r) => facilitator.verify(p, r),
  settle: (p, r) => facilitator.settle(p, r),
  getSupported: async () => facilitator.getSupported(),
}).register('eip155:8453', new ExactEvmScheme())

const app = express()
app.use(express.json())
app.use(
  paymentMiddleware(
    {
      'POST /api/v1/hash-digest': {
        accepts: { scheme: 'exact', price: '$0.001', network: 'eip155:8453', payTo: PAY_TO, maxTimeoutSeconds: 60 },
        description: 'Hash digest',
        mimeType: 'application/json',
      },
    },
    server,
  ),
)
app.post('/api/v1/hash-digest', (req, res) => {
  const digest = createHash('sha256')
    .update(String(req.body?.text ?? ''), 'utf8')
    .digest('hex')
  res.json({ algo: 'sha256', hmac: false, encoding: 'hex', digest, bytes: 32 })
})
const listener = app.listen(0, '127.0.0.1', () => console.log(`PORT ${listener.address().port}`))
