/** Minimal typings for papaparse (it ships without its own), covering what the data-format services use. */
declare module 'papaparse' {
  interface ParseError {
    type: string
    code: string
    message: string
    row?: number
    index?: number
  }
  interface ParseMeta {
    delimiter: string
    linebreak: string
    aborted: boolean
    truncated: boolean
    cursor: number
  }
  interface ParseResult<T> {
    data: T
    errors: ParseError[]
    meta: ParseMeta
  }
  interface Parser {
    abort(): void
    pause(): void
    resume(): void
  }
  interface ParseConfig<T> {
    delimiter?: string
    newline?: string
    quoteChar?: string
    header?: boolean
    dynamicTyping?: boolean
    preview?: number
    skipEmptyLines?: boolean | 'greedy'
    delimitersToGuess?: string[]
    step?: (results: ParseResult<T>, parser: Parser) => void
  }
  const Papa: { parse<T = unknown>(input: string, config?: ParseConfig<T>): ParseResult<T[]> }
  export default Papa
  export type { ParseConfig, ParseError, ParseMeta, ParseResult, Parser }
}
