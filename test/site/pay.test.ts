/**
 * Paying from the try-it panel in headless Chromium, on a real local Base replica (anvil + Circle's USDC):
 *  - with the dev chain's demo payer (the server signs; only on the embedded dev chain);
 *  - with a browser wallet found by EIP-6963 discovery (an injected test wallet whose key stays in the test
 *    process, as a real wallet's stays in the wallet), through viem's custom transport and @x402/fetch in the page.
 * Money checks after each: payee's on-chain delta = ledger settled total = /stats revenue.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { createPublicClient, http, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, usdcBalance } from '../../runtime/chain/usdc'
import { launchChromium } from '../support/browser'
import { post, startServer, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'
import { chainFacilitator } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'
import { PAYMENT_STATES } from '../../runtime/db/shared'

const ART = 'test-artifacts/site'
let chain: DevChain
let dev: TestServer
let real: TestServer
let browser: Browser
let page: Page
let payeeStart = 0n

beforeAll(async () => {
  mkdirSync(ART, { recursive: true })
  chain = await startDevChain()
  const facilitator = () => chainFacilitator(chain)
  const env = { PAY_TO: chain.payee.address, INVALID_PAYMENT_LIMIT: '0' }
  ;[dev, real] = await Promise.all([
    startServer({
      entries: withEcho(),
      facilitator: facilitator(),
      payTo: chain.payee.address,
      env,
      devPayer: chain.payer as { address: `0x${string}`; privateKey: Hex },
    }),
    // No demo payer: what a server on a real network looks like to the page (visitors pay with their own wallet).
    startServer({ entries: withEcho(), facilitator: facilitator(), payTo: chain.payee.address, env }),
  ])
  payeeStart = await usdcBalance(chain.rpcUrl, chain.payee.address)
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await Promise.all([dev?.stop(), real?.stop()])
  await chain?.stop()
})

const revenueAtomic = async (s: TestServer) =>
  Math.round(((await (await fetch(s.url + '/stats')).json()) as any).totals.revenue_usd * 1e6)
async function moneyAddsUp() {
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeStart
  const ledger = sqliteOf(dev.booted).ledger.settledTotal() + sqliteOf(real.booted).ledger.settledTotal()
  expect(ledger).toBe(delta)
  expect(BigInt((await revenueAtomic(dev)) + (await revenueAtomic(real)))).toBe(delta)
}
async function openTry(s: TestServer, slug: string, text: string) {
  await page.goto(`${s.url}/?q=${slug}`)
  await page.waitForSelector('body[data-ready="true"]')
  await page.click(`article[data-slug="${slug}"] button`)
  await page.fill('#f-text', text)
  await page.click('#try-form button[type="submit"]')
  await page.waitForSelector('.challenge')
}

/**
 * Injects an EIP-6963 wallet into the page. Its key stays in this process (the page only sees an EIP-1193
 * provider, as with a real extension). It starts on Ethereum mainnet without Base (so the page must add and switch),
 * and with `reject` the user declines to sign (EIP-1193 error 4001). Returns the methods the page called.
 */
async function injectWallet(
  page: Page,
  wallet: ReturnType<typeof privateKeyToAccount>,
  o: { reject?: boolean } = {},
): Promise<string[]> {
  const calls: string[] = []
  let chainId = '0x1'
  let knowsBase = false
  await page.exposeFunction('__walletRequest', async (method: string, params: any[]) => {
    calls.push(method)
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [wallet.address]
    if (method === 'eth_chainId') return chainId
    if (method === 'wallet_switchEthereumChain') {
      if (params[0].chainId !== '0x2105') return { __error: { code: 4001, message: 'rejected' } }
      if (!knowsBase) return { __error: { code: 4902, message: 'Unrecognized chain ID "0x2105".' } }
      chainId = '0x2105'
      return null
    }
    if (method === 'wallet_addEthereumChain') {
      expect(params[0]).toMatchObject({ chainId: '0x2105', chainName: 'Base' })
      knowsBase = true
      return null
    }
    if (method === 'eth_signTypedData_v4') {
      if (o.reject) return { __error: { code: 4001, message: 'User rejected the request.' } }
      expect(chainId).toBe('0x2105')
      const t = JSON.parse(params[1])
      expect(params[0].toLowerCase()).toBe(wallet.address.toLowerCase())
      return wallet.signTypedData({
        domain: t.domain,
        types: { TransferWithAuthorization: t.types.TransferWithAuthorization },
        primaryType: t.primaryType,
        message: t.message,
      })
    }
    return { __error: { code: 4200, message: `unsupported ${method}` } }
  })
  await page.addInitScript(() => {
    // Errors cross the bridge as values and are thrown here as EIP-1193 errors ({ code, message }).
    const provider = {
      request: async ({ method, params }: { method: string; params?: unknown[] }) => {
        const r = await (window as any).__walletRequest(method, params ?? [])
        if (r?.__error) throw Object.assign(new Error(r.__error.message), { code: r.__error.code })
        return r
      },
    }
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: Object.freeze({
            info: {
              uuid: '6f1b8a1e-0000-4000-8000-000000000001',
              name: 'Test Wallet',
              icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
              rdns: 'dev.test.wallet',
            },
            provider,
          }),
        }),
      )
    window.addEventListener('eip6963:requestProvider', announce)
  })
  return calls
}

describe('pay from the page', () => {
  test('on the dev chain the demo payer pays: result and tx hash are shown, and the tx is on chain', async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await openTry(dev, 'slugify', 'Paid from the page')
    expect(await page.textContent('#pay-dev')).toContain('Pay $0.001 with the demo payer')
    await page.focus('#pay-dev') // by keyboard: a native button in the dialog
    await page.keyboard.press('Enter')
    await page.waitForSelector('#pay-result[data-status]', { timeout: 30_000 })
    expect(await page.getAttribute('#pay-result', 'data-status')).toBe('200')
    expect(JSON.parse((await page.textContent('#pay-body'))!)).toEqual({ slug: 'paid-from-the-page', length: 18 })
    const tx = (await page.textContent('[data-field="tx"]'))!.trim()
    expect(tx).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await page.locator('[data-field="tx"] a').count()).toBe(0) // local chain: no explorer link
    expect(await page.textContent('[data-field="payer"]')).toBe(chain.payer.address)
    const receipt = await createPublicClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
    }).getTransactionReceipt({ hash: tx as Hex })
    expect(receipt.status).toBe('success')
    expect(sqliteOf(dev.booted).ledger.settledTotal()).toBe(1000n)
    await moneyAddsUp()
    await page.locator('#pay-result').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${ART}/pay-dev.png` })
    await page.close()
  }, 60_000)

  test('the demo payer signs only transfers to this payee for a service price; a real network has no demo payer', async () => {
    const now = Math.floor(Date.now() / 1000)
    const good = {
      domain: {
        name: 'USD Coin',
        version: '2',
        chainId: 8453,
        verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      },
      primaryType: 'TransferWithAuthorization',
      message: {
        from: chain.payer.address,
        to: chain.payee.address,
        value: '1000',
        validAfter: '0',
        validBefore: String(now + 60),
        nonce: '0x' + '11'.repeat(32),
      },
    }
    const ok = await post(dev.url + '/api/dev-payer/sign', good, { origin: dev.url })
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as any).signature).toMatch(/^0x[0-9a-f]{130}$/)
    const attacker = privateKeyToAccount(generatePrivateKey()).address
    for (const [bad, path] of [
      [{ ...good, message: { ...good.message, to: attacker } }, '/message/to'],
      [{ ...good, message: { ...good.message, value: '1000000000' } }, '/message/value'],
      [{ ...good, message: { ...good.message, validBefore: String(now + 86_400) } }, '/message/validBefore'],
      [{ ...good, domain: { ...good.domain, chainId: 1 } }, '/domain/chainId'],
      [{ ...good, domain: { ...good.domain, verifyingContract: attacker } }, '/domain/verifyingContract'],
      [{ ...good, primaryType: 'Permit' }, '/primaryType'],
    ] as const) {
      const r = await post(dev.url + '/api/dev-payer/sign', bad, { origin: dev.url })
      expect(r.status).toBe(422)
      const b = (await r.json()) as any
      expect(b.error.code).toBe('REFUSED_TO_SIGN')
      expect(b.error.details[0].path).toBe(path)
    }
    expect((await post(dev.url + '/api/dev-payer/sign', 'not json', { origin: dev.url })).status).toBe(400)
    expect((await post(dev.url + '/api/dev-payer/sign', 'x'.repeat(9000), { origin: dev.url })).status).toBe(413)
    // No demo payer where none was given, and none on a real network even if one is passed in.
    expect((await fetch(real.url + '/api/dev-payer')).status).toBe(404)
    expect((await post(real.url + '/api/dev-payer/sign', good)).status).toBe(404)
    const onRpc = await startServer({
      payTo: chain.payee.address,
      env: { PAY_TO: chain.payee.address, RPC_URL: chain.rpcUrl, SETTLER_PRIVATE_KEY: chain.settler.privateKey },
      devPayer: chain.payer as { address: `0x${string}`; privateKey: Hex },
    })
    try {
      expect((await fetch(onRpc.url + '/api/dev-payer')).status).toBe(404)
      expect((await post(onRpc.url + '/api/dev-payer/sign', good)).status).toBe(404)
    } finally {
      await onRpc.stop()
    }
    const info = (await (await fetch(dev.url + '/api/dev-payer')).json()) as any
    expect(info).toMatchObject({ address: chain.payer.address, network: 'eip155:8453', dev_chain: true })
    expect(JSON.stringify(info)).not.toContain(chain.payer.privateKey.slice(2))
  })

  test('elsewhere the visitor pays with an EIP-6963 browser wallet; the receipt links to the explorer', async () => {
    const key = generatePrivateKey()
    const wallet = privateKeyToAccount(key)
    await fundPayer(chain, wallet.address, 50_000n)
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    const calls = await injectWallet(page, wallet)
    const before = await usdcBalance(chain.rpcUrl, wallet.address)
    await openTry(real, 'slugify', 'From my wallet')
    expect(await page.locator('#pay-dev').count()).toBe(0)
    await page.click('#pay-wallet')
    await page.waitForSelector('button[data-wallet="dev.test.wallet"]')
    await page.click('button[data-wallet="dev.test.wallet"]')
    await page.waitForSelector('#pay-result[data-status]', { timeout: 30_000 })
    expect(await page.getAttribute('#pay-result', 'data-status')).toBe('200')
    expect(JSON.parse((await page.textContent('#pay-body'))!)).toEqual({ slug: 'from-my-wallet', length: 14 })
    const tx = (await page.textContent('[data-field="tx"]'))!.trim()
    expect(tx).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await page.getAttribute('[data-field="tx"] a', 'href')).toBe(`https://basescan.org/tx/${tx}`)
    expect(await page.textContent('[data-field="payer"]')).toBe(wallet.address)
    expect(calls).toContain('eth_signTypedData_v4')
    expect(calls.filter((c) => c.startsWith('wallet_'))).toEqual([
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
    ])
    expect(before - (await usdcBalance(chain.rpcUrl, wallet.address))).toBe(1000n)
    await moneyAddsUp()
    await page.locator('#pay-result').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${ART}/pay-wallet.png` })
    await page.close()
  }, 60_000)

  test('a wallet user who declines to sign is told so, and nothing is charged or reserved', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    await fundPayer(chain, wallet.address, 50_000n)
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    const calls = await injectWallet(page, wallet, { reject: true })
    const rows = sqliteOf(real.booted).ledger.byState([...PAYMENT_STATES]).length
    await openTry(real, 'slugify', 'Declined')
    await page.click('#pay-wallet')
    await page.click('button[data-wallet="dev.test.wallet"]')
    await page.waitForSelector('#pay-result .error')
    expect(await page.textContent('#pay-result')).toContain('Payment did not go through')
    expect(await page.textContent('#pay-result')).toContain('rejected')
    expect(calls).toContain('eth_signTypedData_v4')
    expect(await usdcBalance(chain.rpcUrl, wallet.address)).toBe(50_000n)
    expect(sqliteOf(real.booted).ledger.byState([...PAYMENT_STATES]).length).toBe(rows)
    await moneyAddsUp()
    await page.close()
  }, 60_000)

  test('the committed browser bundle is what scripts/build-pay-bundle.ts makes from pay-entry.ts', () => {
    const r = Bun.spawnSync([process.execPath, 'scripts/build-pay-bundle.ts', '--check'], {
      cwd: `${import.meta.dir}/../..`,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(r.stderr.toString()).toBe('')
    expect(r.exitCode).toBe(0)
  })

  test('with no wallet installed the page says so and charges nothing', async () => {
    page = await browser.newPage({ viewport: { width: 390, height: 800 } })
    await openTry(real, 'slugify', 'No wallet')
    await page.click('#pay-wallet')
    await page.waitForSelector('.wallets p')
    expect(await page.textContent('.wallets')).toContain('No browser wallet found')
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false)
    await moneyAddsUp()
    await page.close()
  }, 30_000)
})
