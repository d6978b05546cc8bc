import { encodeFunctionData, getAddress } from 'viem/utils'
import { EIP3009_ABI } from '../../eip3009-abi'
import { hexToBig, type Rpc } from './rpc'

/** The token balance of `holder` (atomic units) at the latest block. */
export async function tokenBalance(rpc: Rpc, holder: string, asset: string): Promise<bigint> {
  return hexToBig(
    await rpc<string>('eth_call', [
      {
        to: getAddress(asset),
        data: encodeFunctionData({ abi: EIP3009_ABI, functionName: 'balanceOf', args: [getAddress(holder)] }),
      },
      'latest',
    ]),
  )
}
