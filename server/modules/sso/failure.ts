import type { SsoErrorCode } from '../../../contract/sso.ts'

/** A refusal that sends the browser to /login?message=<code>. */
export class SsoFailure extends Error {
  override name = 'SsoFailure'
  readonly code: SsoErrorCode
  constructor(code: SsoErrorCode) {
    super(code)
    this.code = code
  }
}
