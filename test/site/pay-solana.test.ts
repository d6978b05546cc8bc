/**
 * Paying from the try-it panel on either chain, in headless Chromium, on the embedded dev chains (anvil with Circle's
 * USDC for Base, LiteSVM with USDC at its real mint for Solana): the panel offers a chain choice (Base by default);
 * on Solana the official @x402/svm client in the page builds the payment and the Solana demo payer (server-side, dev
 * chains only) signs it, or elsewhere the visitor's Wallet Standard wallet does. Books after each: the payee's USDC delta on each chain = /stats revenue for that network =
 * the ledger's settled rows for it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import {
  type Address,
  getTransactionDecoder,
  getTransactionEncoder,
  type SignatureBytes,
  signBytes,
  type Transaction,
  type TransactionPartialSigner,
} from '@solana/kit'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { x402Client } from '@x402/core/client'
import type { PaymentRequirements } from '@x402/core/types'
import type { Browser, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { installUsdcAccount } from '../../runtime/chain/solana/accounts'
import { newSolanaKey } from '../../runtime/chain/solana/keys'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { sqliteOf } from '../../runtime/db/open'
import { launchChromium } from '../support/browser'
import { withEcho } from '../support/extra-service'
import { chainFacilitator } from '../support/on-chain'
import { post, startServer, type TestServer } from '../support/server'
import { paymentRequiredOf, solanaEnv, usdcOf } from '../support/solana'

const ART = 'test-artifacts/site'
let base: DevChain
let sol: SolanaDevChain
let dev: TestServer
let browser: Browser
let basePayeeStart = 0n
let solPayeeStart = 0n

beforeAll(async () => {
  mkdirSync(ART, { recursive: true })
  ;[base, sol] = await Promise.all([startDevChain(), startSolanaDevChain()])
  dev = await startServer({
    entries: withEcho(),
    facilitator: chainFacilitator(base),
    payTo: base.payee.address,
    env: { PAY_TO: base.payee.address, INVALID_PAYMENT_LIMIT: '0', ...solanaEnv(sol) },
    devPayer: base.payer as { address: `0x${string}`; privateKey: Hex },
    devSolanaPayer: sol.payer,
  })
  basePayeeStart = await usdcBalance(base.rpcUrl, base.payee.address)
  solPayeeStart = await usdcOf(sol, sol.payee.usdcAccount)
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await dev?.stop()
  await Promise.all([base?.stop(), sol?.stop()])
})

/** Settled amounts in the ledger for one network. */
const ledgerOn = (network: string) =>
  (
    sqliteOf(dev.booted)
      .db.query(`SELECT amount FROM payments WHERE network = ? AND state = 'settled'`)
      .all(network) as Array<{ amount: string }>
  ).reduce((n, r) => n + BigInt(r.amount), 0n)
const statsOn = async (network: string) => {
  const stats = (await (await fetch(dev.url + '/stats')).json()) as {
    networks: Array<{ network: string; revenue_atomic: string }>
  }
  return BigInt(stats.networks.find((n) => n.network === network)?.revenue_atomic ?? '0')
}
/** Each chain's payee delta = /stats revenue for its network = the ledger for it; returns the two deltas. */
async function booksAgree(): Promise<{ base: bigint; solana: bigint }> {
  const baseDelta = (await usdcBalance(base.rpcUrl, base.payee.address)) - basePayeeStart
  const solDelta = (await usdcOf(sol, sol.payee.usdcAccount)) - solPayeeStart
  expect(ledgerOn('eip155:8453')).toBe(baseDelta)
  expect(await statsOn('eip155:8453')).toBe(baseDelta)
  expect(ledgerOn(SOLANA_MAINNET_CAIP2)).toBe(solDelta)
  expect(await statsOn(SOLANA_MAINNET_CAIP2)).toBe(solDelta)
  return { base: baseDelta, solana: solDelta }
}
async function openTry(page: Page, slug: string, text: string) {
  await page.goto(`${dev.url}/?q=${slug}`)
  await page.waitForSelector('body[data-ready="true"]')
  await page.click(`article[data-slug="${slug}"] button`)
  await page.fill('#f-text', text)
  await page.click('#try-form button[type="submit"]')
  await page.waitForSelector('.challenge')
}
async function payDev(page: Page) {
  await page.click('#pay-dev')
  await page.waitForSelector('#pay-result[data-status]', { timeout: 30_000 })
  expect(await page.getAttribute('#pay-result', 'data-status')).toBe('200')
}

describe('the try-it panel pays on Base or Solana', () => {
  test('Base is the default and still pays with its demo payer', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await openTry(page, 'slugify', 'Base by default')
    expect(await page.isChecked('#chain-base')).toBe(true)
    expect(await page.isChecked('#chain-solana')).toBe(false)
    expect(await page.textContent('[data-field="network"]')).toBe('eip155:8453')
    expect(await page.textContent('#pay-dev')).toBe('Pay $0.001 with the demo payer')
    await payDev(page)
    expect(JSON.parse((await page.textContent('#pay-body'))!)).toEqual({ slug: 'base-by-default', length: 15 })
    expect((await page.textContent('[data-field="tx"]'))!.trim()).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await page.textContent('[data-field="payer"]')).toBe(base.payer.address)
    expect(await booksAgree()).toEqual({ base: 1000n, solana: 0n })
    // The dev notice names both demo payers.
    const notice = await page.textContent('#dev-notice')
    expect(notice).toContain(base.payer.address)
    expect(notice).toContain(sol.payer.address)
    await page.close()
  }, 60_000)

  test('choosing Solana shows its terms, and the Solana demo payer pays through @x402/svm: the signature is on chain', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await openTry(page, 'slugify', 'Paid on Solana')
    await page.check('#chain-solana')
    await page.waitForSelector(`[data-field="network"]:text("${SOLANA_MAINNET_CAIP2}")`)
    expect(await page.textContent('[data-field="payTo"]')).toBe(sol.payee.address)
    expect(await page.textContent('[data-field="feePayer"]')).toBe(sol.feePayer.address)
    expect(await page.textContent('#pay-dev')).toBe('Pay $0.001 with the Solana demo payer')
    const payerBefore = await usdcOf(sol, sol.payer.usdcAccount)
    await payDev(page)
    expect(JSON.parse((await page.textContent('#pay-body'))!)).toEqual({ slug: 'paid-on-solana', length: 14 })
    const tx = (await page.textContent('[data-field="tx"]'))!.trim()
    expect(tx).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/) // a base58 transaction signature
    expect(await page.locator('[data-field="tx"] a').count()).toBe(0) // local chain: no explorer link
    expect(await page.textContent('[data-field="payer"]')).toBe(sol.payer.address)
    expect(await page.textContent('[data-field="success"]')).toContain('yes')
    // The transaction the receipt names landed on the Solana dev chain.
    const status = (await (
      await fetch(sol.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSignatureStatuses', params: [[tx]] }),
      })
    ).json()) as { result: { value: Array<{ err: unknown } | null> } }
    expect(status.result.value[0]).not.toBeNull()
    expect(status.result.value[0]!.err).toBeNull()
    expect(payerBefore - (await usdcOf(sol, sol.payer.usdcAccount))).toBe(1000n)
    expect(await booksAgree()).toEqual({ base: 1000n, solana: 1000n })
    await page.locator('#pay-result').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${ART}/pay-solana.png` })
    // Back to Base in the same panel: Base's terms again.
    await page.check('#chain-base')
    await page.waitForSelector('[data-field="network"]:text("eip155:8453")')
    await page.close()
  }, 60_000)
})

/** The message bytes the official client builds for `accepted`, signed by nobody (a signer that only records). */
async function messageFor(accepted: PaymentRequirements, authority: string = sol.payer.address): Promise<string> {
  let bytes: Uint8Array | undefined
  const recorder: TransactionPartialSigner = {
    address: authority as Address,
    signTransactions: async (txs: readonly Transaction[]) =>
      txs.map((t) => {
        bytes = new Uint8Array(t.messageBytes)
        return { [authority]: new Uint8Array(64) as SignatureBytes }
      }),
  }
  const client = new x402Client().register('solana:*', new ExactSvmScheme(recorder, { rpcUrl: sol.url }))
  client.setSpendControls(false)
  await client.createPaymentPayload({
    x402Version: 2,
    resource: { url: `${dev.url}/api/v1/slugify`, description: '', mimeType: 'application/json' },
    accepts: [accepted],
  })
  return Buffer.from(bytes!).toString('base64')
}

describe('the Solana demo payer', () => {
  test('signs only an x402 payment to this payee for a service price, for this page; relays two reads only', async () => {
    const required = paymentRequiredOf(await dev.post('/api/v1/slugify', { text: 'a' }))
    const entry = required.accepts.find((a) => a.network === SOLANA_MAINNET_CAIP2)!
    const sign = (message: unknown, origin = dev.url) =>
      post(dev.url + '/api/dev-payer/solana/sign', { message }, { origin })
    const good = await sign(await messageFor(entry))
    expect(good.status).toBe(200)
    expect(Buffer.from(((await good.json()) as any).signature, 'base64').length).toBe(64)

    const attacker = (await newSolanaKey()).signer.address
    for (const [accepted, path] of [
      [{ ...entry, payTo: attacker }, '/message/instructions/destination'],
      [{ ...entry, amount: '1000000000' }, '/message/instructions/amount'],
      [{ ...entry, extra: { feePayer: attacker } }, '/message/feePayer'],
      // Another authority's transfer (its token account is not the demo payer's).
    ] as const) {
      const r = await sign(await messageFor(accepted as PaymentRequirements))
      expect(r.status).toBe(422)
      const b = (await r.json()) as any
      expect(b.error.code).toBe('REFUSED_TO_SIGN')
      expect(b.error.details[0].path).toBe(path)
    }
    const other = await sign(await messageFor(entry, attacker))
    expect(other.status).toBe(422)
    expect(((await other.json()) as any).error.details[0].path).toBe('/message/instructions/source')
    expect((await sign('AAAA')).status).toBe(422)
    expect((await sign(await messageFor(entry), 'https://evil.example')).status).toBe(403)
    expect((await post(dev.url + '/api/dev-payer/solana/sign', 'not json', { origin: dev.url })).status).toBe(400)

    const relay = (method: string, params: unknown[]) =>
      post(dev.url + '/api/dev-payer/solana/rpc', { jsonrpc: '2.0', id: 7, method, params }, { origin: dev.url })
    const blockhash = (await (await relay('getLatestBlockhash', [])).json()) as any
    expect(blockhash.result.value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect((await relay('getAccountInfo', [entry.asset, { encoding: 'base64' }])).status).toBe(200)
    for (const [method, params] of [
      ['sendTransaction', ['AA==']],
      ['getAccountInfo', [sol.payer.usdcAccount, { encoding: 'base64' }]],
    ] as const) {
      const r = await relay(method, [...params])
      expect(r.status).toBe(422)
      expect(((await r.json()) as any).error.code).toBe('INVALID_INPUT')
    }

    const info = (await (await fetch(dev.url + '/api/dev-payer/solana')).json()) as any
    expect(info).toMatchObject({ address: sol.payer.address, network: SOLANA_MAINNET_CAIP2, dev_chain: true })
    expect(BigInt(info.balance_atomic)).toBe(await usdcOf(sol, sol.payer.usdcAccount))
    expect(JSON.stringify(info)).not.toContain(sol.payer.secretBase58)
    await booksAgree() // nothing the refusals touched moved money
  }, 60_000)

  test('does not exist off the embedded dev chains: with RPC_URL set, or with no Solana demo payer given', async () => {
    const onRpc = await startServer({
      payTo: base.payee.address,
      env: {
        PAY_TO: base.payee.address,
        RPC_URL: base.rpcUrl,
        SETTLER_PRIVATE_KEY: base.settler.privateKey,
        ...solanaEnv(sol),
      },
      devSolanaPayer: sol.payer,
    })
    const noPayer = await startServer({
      entries: withEcho(),
      facilitator: chainFacilitator(base),
      payTo: base.payee.address,
      env: { PAY_TO: base.payee.address, ...solanaEnv(sol) },
    })
    try {
      for (const s of [onRpc, noPayer]) {
        expect((await fetch(s.url + '/api/dev-payer/solana')).status).toBe(404)
        expect((await post(s.url + '/api/dev-payer/solana/sign', { message: 'AAAA' }, { origin: s.url })).status).toBe(
          404,
        )
        expect((await post(s.url + '/api/dev-payer/solana/rpc', { method: 'getLatestBlockhash' })).status).toBe(404)
      }
    } finally {
      await Promise.all([onRpc.stop(), noPayer.stop()])
    }
  }, 60_000)
})

describe('elsewhere, a Solana browser wallet', () => {
  test('found by Wallet Standard discovery, signs in the wallet; the receipt links to solscan; books agree', async () => {
    const real = await startServer({
      entries: withEcho(),
      payTo: base.payee.address,
      env: {
        PAY_TO: base.payee.address,
        RPC_URL: base.rpcUrl,
        SETTLER_PRIVATE_KEY: base.settler.privateKey,
        ...solanaEnv(sol),
      },
    })
    const key = await newSolanaKey()
    const owner = key.signer.address
    const ownerUsdc = await installUsdcAccount(sol.ledger.svm, owner, 50_000n)
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    try {
      // The page's client reads the public Solana RPC (no relay off the dev chain): here it is the dev chain.
      const rpcCalls: string[] = []
      await page.route('https://api.mainnet-beta.solana.com/**', async (route) => {
        const body = route.request().postData() ?? ''
        rpcCalls.push(JSON.parse(body).method)
        const res = await fetch(sol.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        await route.fulfill({
          status: res.status,
          headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
          body: await res.text(),
        })
      })
      // The wallet's key stays in this process: the page sees a Wallet Standard wallet, as with an extension.
      const signed: string[] = []
      await page.exposeFunction('__solSign', async (b64: string) => {
        const tx = getTransactionDecoder().decode(Buffer.from(b64, 'base64'))
        const signature = await signBytes(key.signer.keyPair.privateKey, tx.messageBytes)
        signed.push(b64)
        const out = getTransactionEncoder().encode({ ...tx, signatures: { ...tx.signatures, [owner]: signature } })
        return Buffer.from(out).toString('base64')
      })
      await page.addInitScript((address: string) => {
        const b64 = (b: Uint8Array) => btoa(Array.from(b, (c) => String.fromCharCode(c)).join(''))
        const bytes = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
        const account = Object.freeze({
          address,
          publicKey: new Uint8Array(32),
          chains: ['solana:mainnet'],
          features: ['solana:signTransaction'],
        })
        const wallet = Object.freeze({
          version: '1.0.0',
          name: 'Test Solana Wallet',
          icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
          chains: ['solana:mainnet'],
          accounts: [account],
          features: {
            'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [account] }) },
            'solana:signTransaction': {
              version: '1.0.0',
              supportedTransactionVersions: ['legacy', 0],
              signTransaction: (...inputs: Array<{ transaction: Uint8Array }>) =>
                Promise.all(
                  inputs.map(async (i) => ({
                    signedTransaction: bytes(await (window as any).__solSign(b64(i.transaction))),
                  })),
                ),
            },
          },
        })
        window.addEventListener('wallet-standard:app-ready', (e) => (e as CustomEvent).detail.register(wallet))
      }, owner)
      const payeeBefore = await usdcOf(sol, sol.payee.usdcAccount)
      await page.goto(`${real.url}/?q=slugify`)
      await page.waitForSelector('body[data-ready="true"]')
      await page.click('article[data-slug="slugify"] button')
      await page.fill('#f-text', 'From my Solana wallet')
      await page.click('#try-form button[type="submit"]')
      await page.waitForSelector('.challenge')
      await page.check('#chain-solana')
      await page.waitForSelector('#pay-wallet:text("Solana")')
      expect(await page.locator('#pay-dev').count()).toBe(0) // no demo payer off the dev chains
      await page.click('#pay-wallet')
      await page.click('button[data-wallet="Test Solana Wallet"]')
      await page.waitForSelector('#pay-result[data-status]', { timeout: 30_000 })
      expect(await page.getAttribute('#pay-result', 'data-status')).toBe('200')
      expect(JSON.parse((await page.textContent('#pay-body'))!)).toEqual({ slug: 'from-my-solana-wallet', length: 21 })
      const tx = (await page.textContent('[data-field="tx"]'))!.trim()
      expect(await page.getAttribute('[data-field="tx"] a', 'href')).toBe(`https://solscan.io/tx/${tx}`)
      expect(await page.textContent('[data-field="payer"]')).toBe(owner)
      expect(signed.length).toBe(1)
      expect(rpcCalls).toContain('getAccountInfo')
      expect(await usdcOf(sol, ownerUsdc)).toBe(49_000n)
      // Books: the payee's Solana delta = both servers' /stats revenue on Solana = both ledgers.
      const delta = (await usdcOf(sol, sol.payee.usdcAccount)) - payeeBefore
      expect(delta).toBe(1000n)
      const realLedger = (
        sqliteOf(real.booted)
          .db.query(`SELECT amount FROM payments WHERE network = ? AND state = 'settled'`)
          .all(SOLANA_MAINNET_CAIP2) as Array<{ amount: string }>
      ).reduce((n, r) => n + BigInt(r.amount), 0n)
      expect(realLedger).toBe(delta)
      const realStats = (await (await fetch(real.url + '/stats')).json()) as {
        networks: Array<{ network: string; revenue_atomic: string }>
      }
      expect(BigInt(realStats.networks.find((n) => n.network === SOLANA_MAINNET_CAIP2)!.revenue_atomic)).toBe(delta)
      const total = (await usdcOf(sol, sol.payee.usdcAccount)) - solPayeeStart
      expect(ledgerOn(SOLANA_MAINNET_CAIP2) + realLedger).toBe(total)
      await page.locator('#pay-result').scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${ART}/pay-solana-wallet.png` })
    } finally {
      await page.close()
      await real.stop()
    }
  }, 60_000)
})
