import { expect, test } from 'bun:test'
import { paymentTxUrl } from '../../runtime/admin/explorer'

const tx = `0x${'ab'.repeat(32)}`

test("a payment's explorer link follows the network it was paid on; none on the dev chain or for a bad hash", () => {
  expect(paymentTxUrl({ network: 'eip155:8453', tx_hash: tx }, false)).toBe(`https://basescan.org/tx/${tx}`)
  expect(paymentTxUrl({ network: 'eip155:84532', tx_hash: tx }, false)).toBe(`https://sepolia.basescan.org/tx/${tx}`)
  expect(paymentTxUrl({ network: 'eip155:8453', tx_hash: tx }, true)).toBeNull()
  expect(paymentTxUrl({ network: 'eip155:1', tx_hash: tx }, false)).toBeNull()
  expect(paymentTxUrl({ network: 'eip155:8453', tx_hash: '0x12' }, false)).toBeNull()
  expect(paymentTxUrl({ network: 'eip155:8453', tx_hash: null }, false)).toBeNull()
})
