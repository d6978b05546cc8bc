/** Multicall3's address on Base (and most EVM chains). */
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const
/** Where `@x402/evm` 2.27 expects the batch-settlement contracts (the same address on every chain). */
export const BATCH_SETTLEMENT = '0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003' as const
export const ERC3009_DEPOSIT_COLLECTOR = '0x4020806089470a89826cB9fB1f4059150b550004' as const
