import { css } from 'styled-system/css'

/** Styles the file components and the pages around them share. */
export const alert = css({
  p: '3',
  borderRadius: 'l2',
  bg: 'red.a2',
  color: 'fg.error',
  textStyle: 'sm',
  borderWidth: '1px',
  borderColor: 'red.a6',
})
export const dialogContent = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
  p: { base: '4', sm: '6' },
  w: { base: 'calc(100vw - 2rem)', sm: 'md' },
  maxH: 'calc(100dvh - 2rem)',
  overflowY: 'auto',
})
export const dialogActions = css({
  display: 'flex',
  justifyContent: 'flex-end',
  gap: '3',
  flexWrap: 'wrap',
})
export const chip = css({
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'gray.a3',
  textStyle: 'xs',
  whiteSpace: 'nowrap',
})
export const muted = css({ color: 'fg.muted', whiteSpace: 'nowrap' })
export const nameText = css({ truncate: true, fontWeight: 'medium' })
export const errorLine = css({ textStyle: 'xs', color: 'fg.error', mt: '1', maxW: '18rem' })
