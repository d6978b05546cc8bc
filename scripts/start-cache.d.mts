// Types of scripts/start-cache.mjs (plain JavaScript: the bootstrap runs on Node before Bun is installed).
/** The cache folder of `npm start`'s server binary (.cache/start). */
export declare const cacheDir: (root: string) => string
/** Whether the fingerprint covers a file (a path relative to the repository) of the build's graph. */
export declare const covers: (file: string) => boolean
/** Fingerprint of the sources a start binary is built from. */
export declare function sourcesKey(root: string, bun: string): string
/** Where the binary of a key lives. */
export declare const binaryPath: (root: string, key: string) => string
/** The start binary for the sources as they are now (cached, else built now); null when the build failed. */
export declare function startBinary(root: string, bun: string, say: (line: string) => void): Promise<string | null>
