/** Where A2A is served: the agent card and the JSON-RPC endpoint. */
export const CARD_PATH = '/.well-known/agent-card.json'
export const A2A_PATH = '/a2a'
