/**
 * #13 item 8: a contract wallet (EIP-1271) whose owner signs 65-byte signatures pays through the real route with
 * the official client. The wallet is a minimal 1-of-1 owner check assembled by hand below (isValidSignature:
 * ecrecover(hash, v, r, s) == owner → 0x1626ba7e), deployed by a real transaction on the dev chain and funded
 * with USDC. A valid EOA payment costs no eth_getCode; a contract wallet signed by a stranger is refused by the chain.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createPublicClient, createWalletClient, hashTypedData, http, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, usdcBalance } from '../../runtime/chain/usdc'
import { startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { decodeB64Json, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'
import { settlerKeys } from './helpers'
import { payingFetch } from '../support/paying-fetch'
import { chainFacilitator, startServerOnChain } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

/** The eth_sign prefix of a 32-byte message: "\x19Ethereum Signed Message:\n32" (28 bytes). */
const ETH_SIGN_PREFIX = Buffer.from('\x19Ethereum Signed Message:\n32', 'latin1')

/**
 * Runtime bytecode of the 1-of-1 EIP-1271 wallet. Calldata: selector, hash, offset, length, r, s, v. With `ethSign`
 * it checks signatures the way a Safe checks its owners' eth_sign signatures: v = 31/32 (27/28 + 4) over
 * keccak256("\x19Ethereum Signed Message:\n32" ‖ hash).
 */
export function walletRuntime(owner: Address, ethSign = false): Hex {
  const b: number[] = []
  const push1 = (x: number) => b.push(0x60, x)
  if (ethSign) {
    b.push(0x7b, ...ETH_SIGN_PREFIX) // PUSH28 prefix
    push1(0x20)
    b.push(0x1b) //                    prefix << 32: left-aligned in a word
    push1(0x00)
    b.push(0x52) //                    mem[0x00..0x1c] = prefix
    push1(0x04)
    b.push(0x35)
    push1(0x1c)
    b.push(0x52) //                    mem[0x1c..0x3c] = hash
    push1(0x3c)
    push1(0x00)
    b.push(0x20) //                    keccak256(mem[0..0x3c])
    push1(0x00)
    b.push(0x52) //                    mem[0x00] = the eth_sign digest
  } else {
    push1(0x04)
    b.push(0x35)
    push1(0x00)
    b.push(0x52) //             mem[0x00] = hash
  }
  push1(0xa4)
  b.push(0x35)
  push1(0xf8)
  b.push(0x1c)
  if (ethSign) {
    push1(0x04)
    b.push(0x90, 0x03) //                v - 4
  }
  push1(0x20)
  b.push(0x52) // mem[0x20] = v (first byte after s)
  push1(0x64)
  b.push(0x35)
  push1(0x40)
  b.push(0x52) //             mem[0x40] = r
  push1(0x84)
  b.push(0x35)
  push1(0x60)
  b.push(0x52) //             mem[0x60] = s
  push1(0x20)
  push1(0x80)
  push1(0x80)
  push1(0x00)
  push1(0x01)
  b.push(0x5a, 0xfa, 0x50) // staticcall(gas, ecrecover, 0, 0x80, 0x80, 0x20)
  push1(0x80)
  b.push(0x51) //                                          recovered = mem[0x80] (0 on failure)
  b.push(0x73, ...Buffer.from(owner.slice(2), 'hex'))
  b.push(0x14) //   == owner
  const jump = b.length
  push1(0x00)
  b.push(0x57) //                  jumpi ok
  push1(0x20)
  push1(0xa0)
  b.push(0xf3) //                             return 32 zero bytes
  const ok = b.length
  b.push(0x5b) //                                  ok:
  b.push(0x63, 0x16, 0x26, 0xba, 0x7e)
  push1(0xe0)
  b.push(0x1b)
  push1(0x00)
  b.push(0x52) // mem[0] = 0x1626ba7e << 224
  push1(0x20)
  push1(0x00)
  b.push(0xf3) //                             return mem[0..32]
  b[jump + 1] = ok
  return `0x${Buffer.from(b).toString('hex')}`
}

/** Init code that returns `runtime` (CODECOPY + RETURN). */
const initCode = (runtime: Hex): Hex => {
  const n = (runtime.length - 2) / 2
  return `0x60${n.toString(16).padStart(2, '0')}80600b6000396000f3${runtime.slice(2)}`
}

let chain: DevChain
let proxy: FaultProxy
let s: TestServer
beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
  const f = chainFacilitator(chain, { rpcUrl: proxy.url, blockTimeMs: 250 })
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    facilitator: f,
    env: { INVALID_PAYMENT_LIMIT: '0' },
  })
})
afterAll(async () => {
  await s?.stop()
  proxy?.stop()
  await chain?.stop()
})

async function deployWallet(owner: Address, ethSign = false): Promise<Address> {
  const [deployer] = await settlerKeys(chain.rpcUrl, 1)
  const w = createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account: privateKeyToAccount(deployer),
  })
  const pub = createPublicClient({ chain: localBase(chain.rpcUrl), transport: http(chain.rpcUrl), pollingInterval: 20 })
  const hash = await w.sendTransaction({ data: initCode(walletRuntime(owner, ethSign)), gas: 200_000n })
  const r = await pub.waitForTransactionReceipt({ hash })
  expect(r.status).toBe('success')
  return r.contractAddress!
}

/** The official client paying as the wallet: the owner's key signs the EIP-712 message for `from` = wallet. */
const walletClient = (wallet: Address, signerKey: Hex) => {
  const owner = privateKeyToAccount(signerKey)
  return wrapFetchWithPayment(
    fetch,
    new x402Client().register(
      'eip155:8453',
      new ExactEvmScheme({ address: wallet, signTypedData: (m) => owner.signTypedData(m as never) }),
    ),
  )
}
const call = (pay: (input: string, init: RequestInit) => Promise<Response>, code: string) =>
  pay(s.url + '/api/v1/test-echo', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })

test('a 1-of-1 EIP-1271 wallet with a 65-byte owner signature pays through the real route', async () => {
  const ownerKey = generatePrivateKey()
  const wallet = await deployWallet(privateKeyToAccount(ownerKey).address)
  await fundPayer(chain, wallet, 1_000_000n)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  proxy.calls.clear()
  const r = await call(walletClient(wallet, ownerKey), 'from a contract')
  expect(r.status).toBe(200)
  expect(await r.json()).toEqual({ echo: 'FROM A CONTRACT', tier: 'flat' })
  expect(decodeB64Json(r.headers.get('payment-response'))).toMatchObject({ success: true, payer: wallet })
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(4200n)
  expect(await usdcBalance(chain.rpcUrl, wallet)).toBe(1_000_000n - 4200n)
  expect(proxy.calls.get('eth_getCode')).toBe(1)
  expect(proxy.calls.get('eth_estimateGas')).toBe(1) // contract wallets: gas is estimated, not bounded
  // a second payment: code presence is cached
  proxy.calls.clear()
  expect((await call(walletClient(wallet, ownerKey), 'again')).status).toBe(200)
  expect(proxy.calls.get('eth_getCode') ?? 0).toBe(0)
  expect(sqliteOf(s.booted).ledger.settledTotal()).toBe((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before)
})

test('the same wallet signed by a stranger is refused by the chain simulation; nothing moves, the handler never runs', async () => {
  const wallet = await deployWallet(privateKeyToAccount(generatePrivateKey()).address)
  await fundPayer(chain, wallet, 1_000_000n)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const r = await call(walletClient(wallet, generatePrivateKey()), 'stranger')
  expect(r.status).toBe(402)
  expect(JSON.stringify(await r.json())).not.toContain('STRANGER')
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
  expect(await usdcBalance(chain.rpcUrl, wallet)).toBe(1_000_000n)
})

test('an EOA payment costs no eth_getCode; an EOA signed by another key is refused locally after one code lookup', async () => {
  const payer = generatePrivateKey()
  await fundPayer(chain, privateKeyToAccount(payer).address, 1_000_000n)
  proxy.calls.clear()
  const eoa = payingFetch(payer)
  expect((await call(eoa, 'eoa')).status).toBe(200)
  expect(proxy.calls.get('eth_getCode') ?? 0).toBe(0)
  proxy.calls.clear()
  const forged = await call(walletClient(privateKeyToAccount(payer).address, generatePrivateKey()), 'forged')
  expect(forged.status).toBe(402)
  expect(proxy.calls.get('eth_getCode')).toBe(1)
  expect(proxy.calls.get('eth_call') ?? 0).toBe(0) // refused before any simulation
})

/** The official client paying as a Safe-style wallet: the owner eth_signs the EIP-712 digest, v + 4 (31/32). */
const safeStyleClient = (wallet: Address, signerKey: Hex) => {
  const owner = privateKeyToAccount(signerKey)
  return wrapFetchWithPayment(
    fetch,
    new x402Client().register(
      'eip155:8453',
      new ExactEvmScheme({
        address: wallet,
        signTypedData: async (m) => {
          const sig = await owner.signMessage({ message: { raw: hashTypedData(m as never) } })
          const v = Number.parseInt(sig.slice(130), 16)
          expect([27, 28]).toContain(v)
          return `${sig.slice(0, 130)}${(v + 4).toString(16)}` as Hex
        },
      }),
    ),
  )
}

test('#24: a Safe-style eth_sign signature (65 bytes, v = 31/32) is left to the chain: paid and settled, not a 503', async () => {
  const ownerKey = generatePrivateKey()
  const wallet = await deployWallet(privateKeyToAccount(ownerKey).address, true)
  await fundPayer(chain, wallet, 1_000_000n)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const settledBefore = sqliteOf(s.booted).ledger.settledTotal()
  const r = await call(safeStyleClient(wallet, ownerKey), 'safe style')
  expect(r.status).toBe(200)
  expect(await r.json()).toEqual({ echo: 'SAFE STYLE', tier: 'flat' })
  expect(decodeB64Json(r.headers.get('payment-response'))).toMatchObject({ success: true, payer: wallet })
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before
  expect(delta).toBe(4200n)
  expect(await usdcBalance(chain.rpcUrl, wallet)).toBe(1_000_000n - 4200n)
  expect(sqliteOf(s.booted).ledger.settledTotal() - settledBefore).toBe(delta)
})

test('#24: the same style signed by a stranger is refused by the chain (402); an EOA with v = 31 is refused locally', async () => {
  const wallet = await deployWallet(privateKeyToAccount(generatePrivateKey()).address, true)
  await fundPayer(chain, wallet, 1_000_000n)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const stranger = await call(safeStyleClient(wallet, generatePrivateKey()), 'stranger')
  expect(stranger.status).toBe(402)
  expect(await usdcBalance(chain.rpcUrl, wallet)).toBe(1_000_000n)
  // an EOA cannot sign with v = 31: refused before any simulation, a 402 (never 503)
  const eoaKey = generatePrivateKey()
  await fundPayer(chain, privateKeyToAccount(eoaKey).address, 1_000_000n)
  proxy.calls.clear()
  const eoa = await call(safeStyleClient(privateKeyToAccount(eoaKey).address, eoaKey), 'eoa v31')
  expect(eoa.status).toBe(402)
  expect(proxy.calls.get('eth_call') ?? 0).toBe(0)
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
})
