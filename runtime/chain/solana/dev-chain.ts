import { lamports } from '@solana/kit'
import { FailedTransactionMetadata } from 'litesvm'
import { installUsdcAccount, installUsdcMint } from './accounts'
import { newSolanaKey } from './keys'
import { SolanaLedger } from './ledger'
import { serveRpc } from './rpc-server'
import type { SolanaDevChain, SolanaDevChainOptions } from './start'

const SOL = 1_000_000_000n

/** Builds the chain and its RPC (see {@link startSolanaDevChain}, which loads this file lazily). */
export async function buildSolanaDevChain(options: SolanaDevChainOptions = {}): Promise<SolanaDevChain> {
  const payerUsdc = options.payerUsdc ?? 1_000_000_000n
  const [authority, payer, payee, feePayer] = await Promise.all([
    newSolanaKey(),
    newSolanaKey(),
    newSolanaKey(),
    newSolanaKey(),
  ])
  const ledger = new SolanaLedger()
  installUsdcMint(ledger.svm, authority.signer.address, payerUsdc)
  const payerUsdcAccount = await installUsdcAccount(ledger.svm, payer.signer.address, payerUsdc)
  const payeeUsdcAccount = await installUsdcAccount(ledger.svm, payee.signer.address, 0n)
  for (const [key, sol] of [
    [feePayer, 100n],
    [payer, 1n],
    [payee, 1n],
  ] as const) {
    const airdrop = ledger.svm.airdrop(key.signer.address, lamports(sol * SOL))
    if (!airdrop || airdrop instanceof FailedTransactionMetadata) throw new Error('solana dev chain: airdrop failed')
  }
  const server = serveRpc(ledger, options.port ?? 0)
  let stopped = false
  return {
    url: `http://127.0.0.1:${server.port}`,
    payer: { address: payer.signer.address, secretBase58: payer.secretBase58, usdcAccount: payerUsdcAccount },
    payee: { address: payee.signer.address, usdcAccount: payeeUsdcAccount },
    feePayer: feePayer.signer,
    feePayerSecretBase58: feePayer.secretBase58,
    ledger,
    async stop() {
      if (stopped) return
      stopped = true
      await server.stop(true)
    },
  }
}
