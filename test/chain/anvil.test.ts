/** The embedded dev chain: real FiatTokenV2_2 at the USDC address on chain id 8453, real settlements, no orphans, restartable. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicClient, createWalletClient, http, parseAbi, parseSignature, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { startAnvil } from '../../runtime/chain/anvil'
import { BASE_CHAIN_ID, localBase, USDC_BASE, usdcBalance } from '../../runtime/chain/usdc'
import { until } from '../support/until'

const ABI = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

/** True while `pid` is a live process (a zombie counts as gone). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

const rpc = async (url: string, method: string, params: unknown[] = []): Promise<unknown> => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: unknown }).result
}

describe('dev chain', () => {
  let chain: DevChain
  beforeAll(async () => {
    chain = await startDevChain({ payerUsdc: 5_000_000n })
  })
  afterAll(() => chain.stop())

  test("the token at Base's USDC address is Circle's: USD Coin, version 2, 6 decimals, chain 8453", async () => {
    const pub = createPublicClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
      pollingInterval: 20,
    })
    const read = (functionName: 'name' | 'version' | 'decimals' | 'symbol') =>
      pub.readContract({ address: USDC_BASE, abi: ABI, functionName })
    expect(
      await Promise.all([read('name'), read('version'), read('decimals'), read('symbol'), pub.getChainId()]),
    ).toEqual(['USD Coin', '2', 6, 'USDC', BASE_CHAIN_ID])
    expect(chain.chainId).toBe(8453)
    expect(await usdcBalance(chain.rpcUrl, chain.payer.address)).toBe(5_000_000n)
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(0n)
    expect(await pub.getBalance({ address: chain.settler.address })).toBe(100n * 10n ** 18n)
  })

  test('a TransferWithAuthorization signed by the payer and settled by the settler moves exactly the value; a replay reverts', async () => {
    const payer = privateKeyToAccount(chain.payer.privateKey)
    const settler = createWalletClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
      account: privateKeyToAccount(chain.settler.privateKey),
      pollingInterval: 20,
    })
    const pub = createPublicClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
      pollingInterval: 20,
    })
    const value = 1_234_567n
    const message = {
      from: payer.address,
      to: chain.payee.address,
      value,
      validAfter: 0n,
      validBefore: BigInt(Math.floor(Date.now() / 1000) + 600),
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    }
    const signature = await payer.signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC_BASE },
      types: {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const { v, r, s } = parseSignature(signature)
    const args = [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
      Number(v),
      r,
      s,
    ] as const
    const [payerBefore, payeeBefore] = [
      await usdcBalance(chain.rpcUrl, payer.address),
      await usdcBalance(chain.rpcUrl, chain.payee.address),
    ]

    const hash = await settler.writeContract({
      address: USDC_BASE,
      abi: ABI,
      functionName: 'transferWithAuthorization',
      args,
    })
    const receipt = await pub.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(chain.settler.address.toLowerCase())
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(payerBefore - value)
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + value)
    expect(
      await pub.readContract({
        address: USDC_BASE,
        abi: ABI,
        functionName: 'authorizationState',
        args: [payer.address, message.nonce],
      }),
    ).toBe(true)

    // replay: rejected in simulation, and a forced transaction is mined as reverted without moving funds
    await expect(
      pub.simulateContract({
        address: USDC_BASE,
        abi: ABI,
        functionName: 'transferWithAuthorization',
        args,
        account: settler.account,
      }),
    ).rejects.toThrow(/authorization is used or canceled/)
    const replay = await settler.writeContract({
      address: USDC_BASE,
      abi: ABI,
      functionName: 'transferWithAuthorization',
      args,
      gas: 200_000n,
    })
    expect((await pub.waitForTransactionReceipt({ hash: replay })).status).toBe('reverted')
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(payerBefore - value)
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + value)
  })

  test('fundPayer funds extra payers, also concurrently', async () => {
    const [a, b] = [
      privateKeyToAccount(generatePrivateKey()).address,
      privateKeyToAccount(generatePrivateKey()).address,
    ]
    await Promise.all([fundPayer(chain, a, 7n), fundPayer(chain, b, 9n), fundPayer(chain, a, 1n)])
    expect([await usdcBalance(chain.rpcUrl, a), await usdcBalance(chain.rpcUrl, b)]).toEqual([8n, 9n])
  })
})

test('stop() leaves no process and no temp dir, is idempotent, and a node restarts on the same port (empty)', async () => {
  const a = await startAnvil()
  const shell = a.proc.pid!
  expect([alive(a.pid), alive(shell), existsSync(a.home)]).toEqual([true, true, true])
  await Promise.all([a.stop(), a.stop()])
  await a.stop()
  expect([alive(a.pid), alive(shell), existsSync(a.home)]).toEqual([false, false, false])

  const b = await startAnvil({ port: a.port })
  try {
    expect(b.url).toBe(a.url)
    expect(await rpc(b.url, 'eth_chainId')).toBe('0x2105')
    expect(await rpc(b.url, 'eth_getCode', [USDC_BASE, 'latest'])).toBe('0x') // state does not survive a restart
  } finally {
    await b.stop()
  }
  expect([alive(b.pid), existsSync(b.home)]).toEqual([false, false])
})

test("a busy port fails fast with anvil's own error", async () => {
  const a = await startAnvil()
  try {
    const t0 = performance.now()
    const err = await startAnvil({ port: a.port }).then(
      () => null,
      (e: Error) => e,
    )
    expect(err?.message).toMatch(/anvil exited .*Address already in use/)
    expect(performance.now() - t0).toBeLessThan(5000) // not the 10 s start timeout
  } finally {
    await a.stop()
  }
})

test('anvil dies with its parent even when the parent is SIGKILLed (stdin watchdog)', async () => {
  const mod = new URL('../../runtime/chain/anvil.ts', import.meta.url).pathname
  const code = `const { startAnvil } = await import(${JSON.stringify(mod)}); const a = await startAnvil(); console.log(JSON.stringify({ pid: a.pid, home: a.home })); setInterval(() => {}, 1e6)`
  const child = Bun.spawn([process.execPath, '-e', code], { stdout: 'pipe', stderr: 'inherit' })
  const reader = child.stdout.getReader()
  let out = ''
  while (!out.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`child exited early: ${out}`)
    out += new TextDecoder().decode(value)
  }
  const { pid, home } = JSON.parse(out) as { pid: number; home: string }
  expect(alive(pid)).toBe(true)
  child.kill('SIGKILL')
  await child.exited
  await until(() => !alive(pid))
  rmSync(home, { recursive: true, force: true }) // nobody is left to delete it: that is the price of SIGKILL
})

test('a chain mining on an interval answers reads of its recent past blocks (a `latest` read racing a new block reads one); an automining chain keeps no past state', async () => {
  const answer = async (url: string, method: string, params: unknown[]) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
  }
  // name() where nothing is installed: an empty answer, read in the state of `block`
  const call = (url: string, block: string) => answer(url, 'eth_call', [{ to: USDC_BASE, data: '0x06fdde03' }, block])
  const interval = await startAnvil({ blockTime: 0.2 })
  try {
    await until(async () => Number(await rpc(interval.url, 'eth_blockNumber')) >= 4, 30_000, 'block 4')
    const head = Number(await rpc(interval.url, 'eth_blockNumber'))
    for (const back of [1, 3]) expect(await call(interval.url, toHex(head - back))).toMatchObject({ result: '0x' })
  } finally {
    await interval.stop()
  }
  const auto = await startAnvil()
  try {
    for (let i = 0; i < 2; i++) await rpc(auto.url, 'evm_mine')
    expect((await call(auto.url, '0x1')).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/BlockOutOfRange/),
    })
  } finally {
    await auto.stop()
  }
})
