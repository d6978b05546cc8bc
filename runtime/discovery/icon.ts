/** The service icon: served as /favicon.svg, /favicon.ico and /icon.svg (the bazaar `iconUrl`). */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0052ff"/><text x="16" y="22" font-size="14" text-anchor="middle" fill="#fff" font-family="sans-serif">402</text></svg>'
