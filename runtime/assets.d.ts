// Text assets bundled with `with { type: 'text' }` (also inside the compiled binary); `*.bundle.js` is imported
// `with { type: 'file' }` (its path, readable with Bun.file, also inside the binary).
declare module '*.css' {
  const text: string
  export default text
}
declare module '*.bundle.js' {
  const text: string
  export default text
}
declare module '*site.js' {
  const text: string
  export default text
}
declare module '*ui.js' {
  const text: string
  export default text
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
