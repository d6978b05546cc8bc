import { registryEntries } from '../../runtime/catalog/registry'
import { services } from '../../services/index.gen'

export { categories, upstreams } from '../../services/index.gen'

/**
 * Every service folder as the entry point hands it to boot (runtime/index.ts). One list per test process: the
 * worker pool runs these entries by slug, a copy or an extra entry of a test stays what it is.
 */
export const entries = registryEntries(services)
