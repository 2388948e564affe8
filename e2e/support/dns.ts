import { createServer } from 'node:http'
import { startDns } from '../../tests/support/dns-server.ts'
import { DNS_CONTROL_URL } from './env.ts'

/**
 * The journeys' DNS: the tests' loopback DNS server (TXT records, NXDOMAIN for the rest) that the
 * e2e server reads domain proofs from (DNS_RESOLVER), and a small HTTP control beside it so that
 * a journey, in another process, can publish a record: POST /publish {name, values}.
 */
export async function startJourneyDns(controlPort: number) {
  const dns = await startDns()
  const control = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/publish') {
      res.writeHead(404).end()
      return
    }
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => {
      try {
        const { name, values } = JSON.parse(body) as { name: string; values: string[] }
        dns.publish(name, values)
        res.writeHead(204).end()
      } catch {
        res.writeHead(400).end()
      }
    })
  })
  await new Promise<void>((resolve) => control.listen(controlPort, '127.0.0.1', resolve))
  return dns.server
}

/** Publishes TXT records of a name on the journeys' DNS. */
export async function publishTxt(name: string, values: string[]) {
  const response = await fetch(`${DNS_CONTROL_URL}/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, values }),
  })
  if (response.status !== 204) throw new Error(`publishing ${name} failed: ${response.status}`)
}
