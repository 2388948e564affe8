import { css } from 'styled-system/css'
import { AuthLayout, BackToLogin } from '../auth/auth-layout.tsx'

const text = css({ textStyle: 'sm', color: 'fg.muted' })

/**
 * An address that leads nowhere, outside the app (issue 30). Inside it, signed-in people get the
 * in-app page (not-found-page.tsx) with the navigation kept.
 */
export function PublicNotFound() {
  return (
    <AuthLayout title="Page not found" footer={<BackToLogin />}>
      <p className={text}>
        There is no page at this address. The link may be mistyped or out of date.
      </p>
    </AuthLayout>
  )
}
