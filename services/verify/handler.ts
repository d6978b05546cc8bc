import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

export default handlerFor(manifest, (input, ctx) => ctx.x402.verify(input as never))
