// The little of express the conformance tests use to host the official @x402/express middleware (express ships no
// types and @types/express is not a dependency).
declare module 'express' {
  import type { Server } from 'node:http'
  interface Response {
    json(body: unknown): void
  }
  interface App {
    use(handler: unknown): void
    all(path: string, handler: (req: unknown, res: Response) => void): void
    listen(port: number, host: string, ready: () => void): Server
  }
  interface Express {
    (): App
    json(): unknown
  }
  const express: Express
  export default express
}
