/** The caller closed its connection before its answer was ready. */
export class ClientGone extends Error {
  constructor() {
    super('client disconnected')
  }
}
