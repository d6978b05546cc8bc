import type { StreamSink } from './context'

/**
 * A sink that passes on the text a handler returns trimmed (`text.trim()`): leading whitespace is dropped and a
 * whitespace run is held back until more text follows it, so the chunks sent add up to exactly the trimmed answer.
 * @example const r = await ctx.model.complete({ ...req, stream: trimmedStream(ctx.stream) }); return { result: r.text.trim() }
 */
export function trimmedStream(sink: StreamSink | undefined): StreamSink | undefined {
  if (!sink) return undefined
  let started = false
  let held = ''
  return {
    delta(text) {
      let t = text
      if (!started) {
        t = t.trimStart()
        if (!t) return
        started = true
      }
      const end = t.trimEnd()
      if (!end) {
        held += t
        return
      }
      sink.delta(held + end)
      held = t.slice(end.length)
    },
    restart(reason) {
      started = false
      held = ''
      sink.restart(reason)
    },
  }
}
