import { createHmac } from 'node:crypto'
import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

const HMAC_OK = new Set(['md5', 'sha1', 'sha256', 'sha384', 'sha512', 'sha3-256', 'sha3-512'])

export default handlerFor(manifest, ({ text, algo = 'sha256', key, encoding = 'hex' }) => {
  let digest: Buffer
  if (key !== undefined) {
    if (!HMAC_OK.has(algo)) throw invalid('key', `HMAC is not offered for ${algo}`)
    digest = createHmac(algo, Buffer.from(key, 'utf8')).update(text, 'utf8').digest()
  } else {
    digest = Buffer.from(new Bun.CryptoHasher(algo as Bun.SupportedCryptoAlgorithms).update(text, 'utf8').digest())
  }
  return { algo, hmac: key !== undefined, encoding, digest: digest.toString(encoding), bytes: digest.length }
})
