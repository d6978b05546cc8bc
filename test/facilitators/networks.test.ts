/** NETWORK: the asset and its EIP-712 domain come from @x402/evm's defaults for every network it knows. */
import { describe, expect, test } from 'bun:test'
import { DEFAULT_ASSETS, ExactEvmScheme } from '@x402/evm'
import { x402Client } from '@x402/core/client'
import { privateKeyToAccount } from 'viem/accounts'
import { verifyTypedData, type Hex } from 'viem'
import { loadConfig } from '../../runtime/config'
import { assetDefaults } from '../../runtime/config/networks'
import { TRANSFER_WITH_AUTHORIZATION } from '../../runtime/pay/eip3009-abi'
import { decodeB64Json, post, startServer } from '../support/server'

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'
/** Circle's USDC on Base Sepolia (developers.circle.com): address and EIP-712 domain name. */
const SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e'

describe('config', () => {
  test('the built-in Base mainnet default equals @x402/evm', () => {
    const d = DEFAULT_ASSETS['eip155:8453'][0]
    expect(assetDefaults('eip155:8453')).toEqual({ asset: d.asset as Hex, name: d.name, version: d.version })
    expect(loadConfig({}).config.networks[0]).toMatchObject({
      network: 'eip155:8453',
      asset: d.asset,
      assetName: 'USD Coin',
      assetVersion: '2',
    })
  })

  test('NETWORK=eip155:84532 fills Base Sepolia USDC with its own domain (registry.yaml mainnet asset not applied)', () => {
    const { config, problems } = loadConfig({ NETWORK: 'eip155:84532' })
    expect(problems).toEqual([])
    expect(config.networks).toEqual([
      expect.objectContaining({ network: 'eip155:84532', asset: SEPOLIA_USDC, assetName: 'USDC', assetVersion: '2' }),
    ])
  })

  test('every EIP-3009 network @x402/evm knows gets its defaults; permit2-only tokens need explicit settings', () => {
    for (const [network, assets] of Object.entries(DEFAULT_ASSETS)) {
      const d = assets[0]
      const { config, problems } = loadConfig({ NETWORK: network })
      if (d.assetTransferMethod === 'permit2') {
        expect(problems.join()).toContain(`NETWORK ${network} has no known USDC defaults`)
        continue
      }
      expect([network, problems]).toEqual([network, []])
      expect(config.networks[0]).toMatchObject({ asset: d.asset, assetName: d.name, assetVersion: d.version })
    }
  })

  test('an unknown network needs ASSET, ASSET_NAME and ASSET_VERSION; a foreign token needs its domain', () => {
    expect(loadConfig({ NETWORK: 'eip155:999999' }).problems.join()).toContain(
      'set ASSET, ASSET_NAME and ASSET_VERSION',
    )
    const explicit = loadConfig({
      NETWORK: 'eip155:999999',
      ASSET: '0x00000000000000000000000000000000000000aa',
      ASSET_NAME: 'Token',
      ASSET_VERSION: '1',
    })
    expect(explicit.problems).toEqual([])
    expect(explicit.config.networks[0]).toMatchObject({
      asset: '0x00000000000000000000000000000000000000aa',
      assetName: 'Token',
      assetVersion: '1',
    })
    expect(
      loadConfig({ NETWORK: 'eip155:84532', ASSET: SEPOLIA_USDC.toLowerCase() }).config.networks[0].assetName,
    ).toBe('USDC')
    expect(
      loadConfig({ NETWORK: 'eip155:84532', ASSET: '0x00000000000000000000000000000000000000aa' }).problems.join(),
    ).toContain('ASSET_NAME')
  })
})

test('a server on Base Sepolia: the 402 names that token and the official client signs for its domain', async () => {
  const s = await startServer({ env: { NETWORK: 'eip155:84532' } })
  try {
    const r = await post(s.url + '/api/v1/slugify', {})
    expect(r.status).toBe(402)
    const pr = decodeB64Json(r.headers.get('payment-required'))
    expect(pr.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:84532',
        amount: '1000',
        asset: SEPOLIA_USDC,
        payTo: PAY_TO,
        maxTimeoutSeconds: 60,
        extra: { name: 'USDC', version: '2' },
      },
    ])
    expect(((await r.json()) as any).accepts[0]).toMatchObject({
      network: 'base-sepolia',
      asset: SEPOLIA_USDC,
      extra: { name: 'USDC', version: '2' },
    })
    const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
    const payload = (await new x402Client()
      .register('eip155:84532', new ExactEvmScheme(account))
      .createPaymentPayload(pr)) as any
    const a = payload.payload.authorization
    const valid = await verifyTypedData({
      address: account.address,
      domain: { name: 'USDC', version: '2', chainId: 84532, verifyingContract: SEPOLIA_USDC },
      types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
      primaryType: 'TransferWithAuthorization',
      message: {
        from: a.from,
        to: a.to,
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce,
      },
      signature: payload.payload.signature,
    })
    expect(valid).toBe(true)
    expect(a).toMatchObject({ to: PAY_TO, value: '1000' })
  } finally {
    await s.stop()
  }
})
