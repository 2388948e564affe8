import { createSocket } from 'node:dgram'
import type { AddressInfo } from 'node:net'

/**
 * A DNS server on loopback for the tests (DNS_RESOLVER): it answers TXT questions from the
 * records a test publishes, NXDOMAIN for names it does not know, and SERVFAIL for names marked
 * broken. Plain RFC 1035 over UDP, enough for Node's resolver.
 */
export interface TestDns {
  /** host:port, for DNS_RESOLVER / createTxtLookup. */
  server: string
  publish(name: string, values: string[]): void
  /** The name answers SERVFAIL until published again. */
  breakName(name: string): void
  close(): Promise<void>
}

function readName(message: Buffer, start: number) {
  const labels: string[] = []
  let offset = start
  for (;;) {
    const length = message[offset] ?? 0
    offset += 1
    if (length === 0) break
    labels.push(message.subarray(offset, offset + length).toString('ascii'))
    offset += length
  }
  return { name: labels.join('.').toLowerCase(), end: offset }
}

function txtAnswer(values: string[]) {
  return values.map((value) => {
    const chunks: Buffer[] = []
    const bytes = Buffer.from(value, 'utf8')
    for (let at = 0; at < bytes.length || at === 0; at += 255) {
      const part = bytes.subarray(at, at + 255)
      chunks.push(Buffer.from([part.length]), part)
      if (bytes.length === 0) break
    }
    const rdata = Buffer.concat(chunks)
    const head = Buffer.alloc(12)
    head.writeUInt16BE(0xc00c, 0) // the question's name
    head.writeUInt16BE(16, 2) // TXT
    head.writeUInt16BE(1, 4) // IN
    head.writeUInt32BE(60, 6)
    head.writeUInt16BE(rdata.length, 10)
    return Buffer.concat([head, rdata])
  })
}

export async function startDns(): Promise<TestDns> {
  const records = new Map<string, string[]>()
  const broken = new Set<string>()
  const socket = createSocket('udp4')
  socket.on('message', (query, peer) => {
    if (query.length < 12) return
    const { name, end } = readName(query, 12)
    const type = query.readUInt16BE(end)
    const question = query.subarray(12, end + 4)
    const values = records.get(name)
    const failing = broken.has(name)
    const answers = !failing && values && type === 16 ? txtAnswer(values) : []
    const header = Buffer.alloc(12)
    header.writeUInt16BE(query.readUInt16BE(0), 0)
    // response, recursion desired/available; rcode 0, 2 (SERVFAIL) or 3 (NXDOMAIN)
    const rcode = failing ? 2 : values ? 0 : 3
    header.writeUInt16BE(0x8180 | rcode, 2)
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(answers.length, 6)
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address() as AddressInfo
  return {
    server: `127.0.0.1:${port}`,
    publish(name, values) {
      broken.delete(name.toLowerCase())
      records.set(name.toLowerCase(), values)
    },
    breakName(name) {
      broken.add(name.toLowerCase())
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}
