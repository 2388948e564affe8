import { css } from 'styled-system/css'
import { AuthLayout, BackToLogin } from '../auth/auth-layout.tsx'

const text = css({ textStyle: 'sm', color: 'fg.muted' })

/** Public routes whose flows arrive with a later release render this, in the account screens' frame. */
export function PublicPlaceholder(props: { title: string }) {
  return (
    <AuthLayout title={props.title} footer={props.title === 'Sign in' ? null : <BackToLogin />}>
      <p className={text}>This screen is not available in this version of Quire yet.</p>
    </AuthLayout>
  )
}
