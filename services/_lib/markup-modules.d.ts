/** Minimal typings for the markup libraries that ship without their own (turndown, sanitize-html). */
declare module 'turndown' {
  interface TurndownOptions {
    headingStyle?: 'setext' | 'atx'
    hr?: string
    bulletListMarker?: '-' | '+' | '*'
    codeBlockStyle?: 'indented' | 'fenced'
    fence?: '```' | '~~~'
    emDelimiter?: '_' | '*'
    strongDelimiter?: '__' | '**'
    linkStyle?: 'inlined' | 'referenced'
    linkReferenceStyle?: 'full' | 'collapsed' | 'shortcut'
    preformattedCode?: boolean
  }
  type Filter = string | string[] | ((node: any, options: TurndownOptions) => boolean)
  interface Rule {
    filter: Filter
    replacement: (content: string, node: any, options: TurndownOptions) => string
  }
  class TurndownService {
    constructor(options?: TurndownOptions)
    turndown(input: string | object): string
    addRule(key: string, rule: Rule): this
    keep(filter: Filter): this
    remove(filter: Filter): this
    escape(text: string): string
  }
  export default TurndownService
}

declare module 'sanitize-html' {
  function sanitizeHtml(dirty: string, options?: sanitizeHtml.Options): string
  namespace sanitizeHtml {
    interface Frame {
      tag: string
      attribs: Record<string, string>
      text: string
    }
    interface Options {
      allowedTags?: string[] | false
      allowedAttributes?: Record<string, string[]> | false
      allowedClasses?: Record<string, string[] | boolean>
      allowedSchemes?: string[]
      allowedSchemesByTag?: Record<string, string[]>
      allowedSchemesAppliedToAttributes?: string[]
      allowProtocolRelative?: boolean
      disallowedTagsMode?: 'discard' | 'escape' | 'recursiveEscape'
      nonTextTags?: string[]
      selfClosing?: string[]
      exclusiveFilter?: (frame: Frame) => boolean
      transformTags?: Record<
        string,
        | string
        | ((tagName: string, attribs: Record<string, string>) => { tagName: string; attribs: Record<string, string> })
      >
      enforceHtmlBoundary?: boolean
      parseStyleAttributes?: boolean
    }
    const defaults: { allowedTags: string[]; allowedAttributes: Record<string, string[]> }
  }
  export default sanitizeHtml
}
