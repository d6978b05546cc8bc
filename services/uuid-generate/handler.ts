import { v4, v5, validate } from 'uuid'
import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

const NAMESPACES: Record<string, string> = {
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
}

export default handlerFor(
  manifest,
  ({ version = 4, count = 1, namespace = 'dns', name, uppercase = false, hyphens = true, no_hyphens = false }) => {
    let make: (i: number) => string
    if (version === 5) {
      if (name === undefined) throw invalid('name', 'is required for version 5')
      const ns = NAMESPACES[namespace.toLowerCase()] ?? namespace
      if (!validate(ns)) throw invalid('namespace', 'must be dns, url, oid, x500 or a UUID')
      const utf8 = new TextEncoder()
      make = (i) => v5(utf8.encode(count > 1 ? `${name}-${i + 1}` : name), ns)
    } else make = () => v4()
    const uuids = Array.from({ length: count }, (_, i) => {
      let u = make(i)
      if (!hyphens || no_hyphens) u = u.replace(/-/g, '')
      return uppercase ? u.toUpperCase() : u
    })
    return { version, uuids }
  },
)
