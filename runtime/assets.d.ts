// Text assets bundled with `with { type: 'text' }` (also inside the compiled binary).
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
