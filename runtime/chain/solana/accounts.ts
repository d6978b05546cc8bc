import { type Address, lamports } from '@solana/kit'
import {
  AccountState,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import type { LiteSVM } from 'litesvm'

/** USDC's mint on Solana mainnet (SPL Token, 6 decimals): @x402/svm's USDC_MAINNET_ADDRESS. */
export const SOLANA_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' as Address
export const SOLANA_USDC_DECIMALS = 6
const MINT_SIZE = 82n
const TOKEN_ACCOUNT_SIZE = 165n

/**
 * Writes the USDC mint at its real address (authority `authority`, supply `supply` atomic units); `mint`: another
 * 6-decimal token at that address instead (tests of a payment in the wrong token).
 */
export function installUsdcMint(
  svm: LiteSVM,
  authority: Address,
  supply: bigint,
  mint: Address = SOLANA_USDC_MINT,
): void {
  const data = getMintEncoder().encode({
    mintAuthority: authority,
    supply,
    decimals: SOLANA_USDC_DECIMALS,
    isInitialized: true,
    freezeAuthority: null,
  })
  svm.setAccount({
    address: mint,
    data: new Uint8Array(data),
    programAddress: TOKEN_PROGRAM_ADDRESS,
    lamports: lamports(svm.minimumBalanceForRentExemption(MINT_SIZE)),
    executable: false,
    space: MINT_SIZE,
  })
}

/** The associated USDC (or `mint`) token account of `owner` (SPL Token program). */
export async function usdcAccountOf(owner: Address, mint: Address = SOLANA_USDC_MINT): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS })
  return ata
}

/** Creates `owner`'s USDC (or `mint`) associated token account (rent-exempt) holding `amount`; returns its address. */
export async function installUsdcAccount(
  svm: LiteSVM,
  owner: Address,
  amount: bigint,
  mint: Address = SOLANA_USDC_MINT,
): Promise<Address> {
  const ata = await usdcAccountOf(owner, mint)
  const data = getTokenEncoder().encode({
    mint,
    owner,
    amount,
    delegate: null,
    state: AccountState.Initialized,
    isNative: null,
    delegatedAmount: 0n,
    closeAuthority: null,
  })
  svm.setAccount({
    address: ata,
    data: new Uint8Array(data),
    programAddress: TOKEN_PROGRAM_ADDRESS,
    lamports: lamports(svm.minimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE)),
    executable: false,
    space: TOKEN_ACCOUNT_SIZE,
  })
  return ata
}
