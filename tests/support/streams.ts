/**
 * A request body of `total` bytes streamed in `chunk`-sized pieces, so without a Content-Length;
 * `pulled()` says how much of it the server asked for.
 */
export function streamedBody(total: number, chunk: number, byte: number) {
  let pulled = 0
  const body = new ReadableStream({
    pull(controller) {
      pulled += chunk
      if (pulled > total) controller.close()
      else controller.enqueue(new Uint8Array(chunk).fill(byte))
    },
  })
  return { body, pulled: () => pulled }
}
