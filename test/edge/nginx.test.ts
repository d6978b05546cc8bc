/** Debian's nginx in front of the server with the config of docs/deploy.md (docs/proxies/): test/edge/driver.ts. */
import { proxyTests } from './driver'

proxyTests('nginx')
