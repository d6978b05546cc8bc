import {
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  getBase58Decoder,
  type KeyPairSigner,
} from '@solana/kit'

/** A key pair on the Solana dev chain: its signer and its secret in the Solana CLI / wallet-export layout. */
export interface SolanaDevKey {
  signer: KeyPairSigner
  /** base58 of 64 bytes: the 32-byte private key, then the 32-byte public key. A dev-chain key: NOT real money. */
  secretBase58: string
}

/** A fresh random key (WebCrypto), its signer and its 64-byte base58 secret. */
export async function newSolanaKey(): Promise<SolanaDevKey> {
  const privateKey = crypto.getRandomValues(new Uint8Array(32))
  const signer = await createKeyPairSignerFromPrivateKeyBytes(privateKey)
  const secret = new Uint8Array(64)
  secret.set(privateKey, 0)
  secret.set(getAddressEncoder().encode(signer.address), 32)
  return { signer, secretBase58: getBase58Decoder().decode(secret) }
}
