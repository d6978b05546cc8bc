/**
 * Installs the x402 batch-settlement contracts (x402BatchSettlement, the ERC-3009 deposit collector) and Multicall3
 * at the addresses `@x402/evm` hard-codes, on any anvil node (tests, an operator's staging chain). Not for a public
 * chain: there the canonical deployments exist already, and `anvil_setCode` does not.
 * Usage: npm run contracts:install -- --rpc http://127.0.0.1:8545
 */
import { installBatchSettlement } from '../runtime/chain/contracts'
import { BATCH_SETTLEMENT, ERC3009_DEPOSIT_COLLECTOR, MULTICALL3 } from '../runtime/chain/addresses'

const i = process.argv.indexOf('--rpc')
const rpc = i > 0 ? process.argv[i + 1] : undefined
if (!rpc || !/^https?:\/\//.test(rpc)) {
  console.error('usage: npm run contracts:install -- --rpc <http(s) URL of an anvil node>')
  process.exit(2)
}
try {
  await installBatchSettlement(rpc)
} catch (e) {
  console.error(
    `contracts:install: ${e instanceof Error ? e.message : String(e)} (is ${new URL(rpc).host} an anvil node?)`,
  )
  process.exit(1)
}
console.log(`installed x402BatchSettlement at ${BATCH_SETTLEMENT}`)
console.log(`installed ERC3009DepositCollector at ${ERC3009_DEPOSIT_COLLECTOR}`)
console.log(`installed Multicall3 at ${MULTICALL3}`)
