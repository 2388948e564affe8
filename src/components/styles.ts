import { css, cva } from 'styled-system/css'

/** Styles the shared components and the pages around them use: one place for each block. */
export const alert = css({
  p: '3',
  borderRadius: 'l2',
  bg: 'red.a2',
  color: 'fg.error',
  textStyle: 'sm',
  borderWidth: '1px',
  borderColor: 'red.a6',
})

/**
 * A dialog's content box. `size`: md and xl from sm up, wide (3xl) from md up; `pad`: fit (less
 * padding on phones, scrolls inside a short window) or fixed (always the same padding).
 */
export const dialogBox = cva({
  base: {
    display: 'flex',
    flexDirection: 'column',
    gap: '4',
    w: { base: 'calc(100vw - 2rem)' },
  },
  variants: {
    size: {
      md: { w: { sm: 'md' } },
      xl: { w: { sm: 'xl' } },
      /** xl, and 3xl from md up. */
      xlWide: { w: { sm: 'xl', md: '3xl' } },
      wide: { w: { base: 'calc(100vw - 1rem)', md: '3xl' } },
    },
    pad: {
      fit: { p: { base: '4', sm: '6' }, maxH: 'calc(100dvh - 2rem)', overflowY: 'auto' },
      fixed: { p: '6' },
    },
  },
  defaultVariants: { size: 'md', pad: 'fit' },
})
export const dialogActions = css({
  display: 'flex',
  justifyContent: 'flex-end',
  gap: '3',
  flexWrap: 'wrap',
})
/** A form's fields, one under another. */
export const formStack = css({ display: 'flex', flexDirection: 'column', gap: '4' })
/** Two fields side by side from sm up. */
export const grid2 = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
  gap: '4',
})
export const fieldLabel = css({ textStyle: 'sm', fontWeight: 'medium', mb: '1', display: 'block' })
export const selectClass = css({
  w: 'full',
  h: '10',
  px: '3',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
})

/** A small rounded label (a status, a count); its colours come from the one that uses it. */
export const pill = css({
  display: 'inline-flex',
  alignItems: 'center',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  textStyle: 'xs',
  fontWeight: 'medium',
  whiteSpace: 'nowrap',
})
/** A bordered box on the page (an upload, a search result). */
export const card = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
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
