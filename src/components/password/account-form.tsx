import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

const form = css({ display: 'flex', flexDirection: 'column', gap: '4' })

/**
 * The form of the account screens: fields stacked, no browser validation (the machine checks),
 * and a submit that only tells the page, without reloading it.
 */
export function AccountForm(props: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      className={form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit()
      }}
    >
      {props.children}
    </form>
  )
}
