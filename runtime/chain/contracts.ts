import type { Hex } from 'viem'
import artifacts from '../../contracts/artifacts.json'
import { BATCH_SETTLEMENT, ERC3009_DEPOSIT_COLLECTOR, MULTICALL3 } from './addresses'

type ContractName = keyof typeof artifacts.contracts

/** ABI of one of our compiled contracts (contracts/src, built into contracts/artifacts.json). */
export const abiOf = (name: ContractName) => artifacts.contracts[name].abi

async function setCode(rpcUrl: string, address: string, code: string): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [address, code as Hex] }),
  })
  const j = (await res.json()) as { error?: { message: string } }
  if (j.error) throw new Error(`anvil_setCode ${address}: ${j.error.message}`)
}

/**
 * Installs the x402 `batch-settlement` contracts (our x402BatchSettlement and ERC-3009 deposit collector, written
 * from the scheme's spec) and Multicall3 at the addresses the official packages hard-code, on an anvil node
 * (`anvil_setCode`). The contracts have no constructor state, so their runtime code is the whole install.
 */
export async function installBatchSettlement(rpcUrl: string): Promise<void> {
  await Promise.all([
    setCode(rpcUrl, BATCH_SETTLEMENT, artifacts.contracts.X402BatchSettlement.runtime),
    setCode(rpcUrl, ERC3009_DEPOSIT_COLLECTOR, artifacts.contracts.ERC3009DepositCollector.runtime),
    // public chains have the real Multicall3: our `exact` batches and x402's facilitator call it
    setCode(rpcUrl, MULTICALL3, artifacts.contracts.Multicall3.runtime),
  ])
}
