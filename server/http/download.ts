import type { Context } from 'hono'
import { stream } from 'hono/streaming'

/** An RFC 6266 Content-Disposition: an ASCII fallback and the UTF-8 name (UP8). */
export function attachment(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`
}

/** Types a browser might render or run are never served as themselves (UP8); Office files are. */
export const safeMime = (mime: string) =>
  /html|svg|xml|javascript/i.test(mime) && !/openxml/i.test(mime)
    ? 'application/octet-stream'
    : mime

/** Sends a stored file as a download that no browser renders or sniffs (UP8). */
export function sendDownload(
  c: Context,
  file: { name: string; mime: string; size: number; stream: NodeJS.ReadableStream },
) {
  c.header('Content-Type', safeMime(file.mime))
  c.header('Content-Disposition', attachment(file.name))
  c.header('Content-Length', String(file.size))
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Cache-Control', 'private, no-store')
  c.header('Content-Security-Policy', "default-src 'none'; sandbox; frame-ancestors 'none'")
  return stream(c, async (out) => {
    for await (const chunk of file.stream) await out.write(chunk as Uint8Array)
  })
}
