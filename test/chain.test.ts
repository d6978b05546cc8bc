/** The embedded dev chain: real FiatTokenV2_2 at the USDC address on chain id 8453, no orphans, restartable. */
import { expect, test } from 'bun:test'
import { createPublicClient, http, parseAbi } from 'viem'
import { existsSync } from 'node:fs'
import { startDevChain } from '../runtime/chain/devchain'
import { startAnvil } from '../runtime/chain/anvil'
import { USDC_BASE, usdcBalance } from '../runtime/chain/usdc'

const alive = (pid: number) => existsSync(`/proc/${pid}`)

test('USDC at the real address reports Circle\'s name, version and decimals on chain 8453', async () => {
  const chain = await startDevChain({ payerUsdc: 5_000_000n })
  try {
    const pub = createPublicClient({ transport: http(chain.rpcUrl) })
    const abi = parseAbi(['function name() view returns (string)', 'function version() view returns (string)', 'function decimals() view returns (uint8)', 'function symbol() view returns (string)'])
    const read = (functionName: 'name' | 'version' | 'decimals' | 'symbol') => pub.readContract({ address: USDC_BASE, abi, functionName })
    expect([await read('name'), await read('version'), await read('decimals'), await read('symbol'), await pub.getChainId()]).toEqual(['USD Coin', '2', 6, 'USDC', 8453])
    expect(await usdcBalance(chain.rpcUrl, chain.payer.address)).toBe(5_000_000n)
  } finally {
    await chain.stop()
  }
})

test('stop leaves no process behind, and a node can be restarted on the same port', async () => {
  const a = await startAnvil()
  const pids = () => Bun.spawnSync(['pgrep', '-f', `--port ${a.port} `]).stdout.toString().trim().split('\n').filter(Boolean)
  expect(alive(a.pid)).toBe(true)
  await a.stop()
  await a.stop()
  expect(alive(a.pid)).toBe(false)
  expect(pids()).toEqual([])
  const b = await startAnvil({ port: a.port })
  expect(b.url).toBe(a.url)
  const res = await fetch(b.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })
  expect(((await res.json()) as { result: string }).result).toBe('0x2105')
  await b.stop()
})
