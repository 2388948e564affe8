import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Client secrets of identity providers are stored encrypted (AES-256-GCM) under a key derived
 * from the server's token secret: a copy of the database alone does not give them away.
 */
export function createSecretBox(serverSecret: string, purpose = 'sso-client-secret') {
  // each purpose its own key (webhook signing secrets: 'webhook-secret', issue 41)
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'quire', purpose, 32))
  return {
    seal(plain: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.')
    },
    open(sealed: string): string {
      const [version, iv, tag, body] = sealed.split('.')
      if (version !== 'v1' || !iv || !tag || !body) throw new Error('not a sealed secret')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8')
    },
  }
}
export type SecretBox = ReturnType<typeof createSecretBox>
