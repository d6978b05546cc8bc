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
 * stopAndTallySchemes: stops `servers` after reading their books: the payee's on-chain delta since `payeeBefore`; the sums of their
 * /stats revenue (every scheme: `stats`, of which `exact` and `channels`), and of their ledger settled totals plus
 * their channel charges (`ledger`); and what their channels hold on chain for PAY_TO but not yet there:
 * claimed-unswept (`unswept`) and charged-unclaimed (`unclaimed`). The money check: stats = ledger, and
 * delta + unswept + unclaimed = stats (issue #32: the day's books count every scheme).
 */
export async function stopAndTallySchemes(
  chain: DevChain,
  servers: TestServer[],
  payeeBefore: bigint,
): Promise<{
  delta: bigint
  stats: bigint
  exact: bigint
  channels: bigint
  ledger: bigint
  unswept: bigint
  unclaimed: bigint
}> {
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore
  const t = { stats: 0n, exact: 0n, channels: 0n, ledger: 0n, unswept: 0n, unclaimed: 0n }
  for (const s of servers) {
    const r = (await (await fetch(s.url + '/stats')).json()) as any
    t.stats += BigInt(r.totals.revenue_atomic)
    t.exact += BigInt(r.schemes.exact.revenue_atomic)
    t.channels += BigInt(r.schemes['batch-settlement']?.revenue_atomic ?? 0)
    const store = s.booted.storage.channels
    const books = await store.totals()
    t.ledger += (await s.booted.storage.ledger.settledTotal()) + books.earned
    for (const n of s.booted.channels?.networks ?? []) t.unswept += (await store.unswept(n.network)).amount
    t.unclaimed += books.earned - books.claimed
    await s.stop()
  }
  return { delta, ...t }
}

/** stopAndTally's three figures: the payee's delta, /stats revenue (every scheme) and the ledger (+ channel charges). */
export async function stopAndTally(
  chain: DevChain,
  servers: TestServer[],
  payeeBefore: bigint,
): Promise<{ delta: bigint; stats: bigint; ledger: bigint }> {
  const { delta, stats, ledger } = await stopAndTallySchemes(chain, servers, payeeBefore)
  return { delta, stats, ledger }
}
