/** A server paid on the dev chain (anvil, Circle's USDC), and the money check the files that pay run at the end. */
import { createWalletClient, http, parseAbi, publicActions, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { fundPayer, type DevChain } from '../../runtime/chain/devchain'
import { localBase, setEthBalance, usdcBalance, USDC_BASE } from '../../runtime/chain/usdc'
import { createLocalFacilitator, type LocalFacilitatorOptions } from '../../runtime/pay/facilitator/local'
import { startServer, type StartOptions, type TestServer } from './server'

/** The real local facilitator on `chain`, settling with the chain's settler and polling every 20 ms. */
export const chainFacilitator = (chain: DevChain, o: Partial<LocalFacilitatorOptions> = {}) =>
  createLocalFacilitator({
    rpcUrl: chain.rpcUrl,
    settlerKey: chain.settler.privateKey as Hex,
    chainId: 8453,
    pollingIntervalMs: 20,
    ...o,
  })

/** startServer paid to the chain's payee, through `o.facilitator` or else chainFacilitator(chain). */
export const startServerOnChain = (chain: DevChain, o: StartOptions = {}): Promise<TestServer> =>
  startServer({
    ...o,
    facilitator: o.facilitator ?? chainFacilitator(chain),
    payTo: chain.payee.address,
    env: { PAY_TO: chain.payee.address, ...o.env },
  })

/** A new payer holding `atomic` USDC (none when 0). */
export async function fundedPayer(chain: DevChain, atomic: bigint): Promise<{ key: Hex; address: Hex }> {
  const key = generatePrivateKey()
  const address = privateKeyToAccount(key).address
  if (atomic > 0n) await fundPayer(chain, address, atomic)
  return { key, address }
}

/** The payer sends `atomic` of its USDC away (to the chain's admin; it gets gas for that first), mined before this returns. */
export async function moveAway(chain: DevChain, key: Hex, atomic: bigint): Promise<void> {
  const account = privateKeyToAccount(key)
  await setEthBalance(chain.rpcUrl, account.address, 10n ** 16n)
  const wallet = createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account,
    pollingInterval: 20,
  }).extend(publicActions)
  await wallet.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: USDC_BASE,
      abi: parseAbi(['function transfer(address to, uint256 value) returns (bool)']),
      functionName: 'transfer',
      args: [chain.admin.address, atomic],
    }),
  })
}

/**
 * Stops `servers` after reading their books: the payee's on-chain delta since `payeeBefore`, and the sums of
 * their /stats revenue and ledger settled totals (the money check: all three equal what the file moved).
 */
export async function stopAndTally(
  chain: DevChain,
  servers: TestServer[],
  payeeBefore: bigint,
): Promise<{ delta: bigint; stats: bigint; ledger: bigint }> {
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore
  let stats = 0n,
    ledger = 0n
  for (const s of servers) {
    stats += BigInt(((await (await fetch(s.url + '/stats')).json()) as any).totals.revenue_atomic)
    ledger += await s.booted.storage.ledger.settledTotal()
    await s.stop()
  }
  return { delta, stats, ledger }
}
