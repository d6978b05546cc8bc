import type { Hex } from 'viem'

/** Multicall3's address on Base (and most EVM chains). */
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const

/**
 * Runtime code of a stand-in for Multicall3's `aggregate3((address target, bool allowFailure, bytes callData)[])`,
 * assembled by hand for the dev chain (anvil has no Multicall3): it reads the ABI-encoded calls, runs each with all
 * remaining gas, reverts when a call fails and its allowFailure is false, and returns nothing (callers of the
 * settlement batch read each payment's outcome from the logs, never from the return data). It does not check the
 * selector and implements nothing else: on Base the real Multicall3 answers the same calldata.
 */
export function aggregate3Subset(): Hex {
  const b: number[] = []
  const labels: Record<string, number> = {}
  const fix: Array<[number, string]> = []
  const op = (...x: number[]) => b.push(...x)
  const push2 = (label: string) => {
    fix.push([b.length + 1, label])
    op(0x61, 0, 0)
  }
  const mark = (label: string) => {
    labels[label] = b.length
    op(0x5b)
  }
  op(0x60, 0x24, 0x35) //                          [n]            n = calldataload(0x24)
  op(0x60, 0x00) //                                 [n, i]
  mark('loop')
  op(0x81, 0x81, 0x14)
  push2('end')
  op(0x57) //   if i == n: end
  op(0x80, 0x60, 0x20, 0x02, 0x60, 0x44, 0x01, 0x35, 0x60, 0x44, 0x01) // [n,i,t]  t = 0x44 + calldataload(0x44 + 32 i)
  op(0x80, 0x60, 0x40, 0x01, 0x35, 0x81, 0x01) //  [n,i,t,b]      b = t + calldataload(t + 0x40)
  op(0x80, 0x35) //                                 [n,i,t,b,len]
  op(0x80, 0x82, 0x60, 0x20, 0x01, 0x60, 0x00, 0x37) // calldatacopy(0, b + 32, len)
  op(0x60, 0x00, 0x60, 0x00, 0x82, 0x60, 0x00, 0x60, 0x00, 0x87, 0x35, 0x5a, 0xf1) // [n,i,t,b,len,ok]  call(gas, target, 0, 0, len, 0, 0)
  op(0x83, 0x60, 0x20, 0x01, 0x35, 0x17)
  push2('next')
  op(0x57) // ok || allowFailure: next
  op(0x60, 0x00, 0x80, 0xfd) //                     revert(0, 0)
  mark('next')
  op(0x50, 0x50, 0x50, 0x60, 0x01, 0x01)
  push2('loop')
  op(0x56) // [n, i+1]: loop
  mark('end')
  op(0x00)
  for (const [at, l] of fix) {
    b[at] = labels[l] >> 8
    b[at + 1] = labels[l] & 0xff
  }
  return `0x${Buffer.from(b).toString('hex')}`
}

/** Installs the aggregate3 stand-in at {@link MULTICALL3} on an anvil node (anvil_setCode). */
export async function installMulticall3(rpcUrl: string): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [MULTICALL3, aggregate3Subset()] }),
  })
  const j = (await res.json()) as { error?: { message: string } }
  if (j.error) throw new Error(`anvil_setCode: ${j.error.message}`)
}
