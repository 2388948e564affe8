import { css, cva } from 'styled-system/css'
import { flex, wrap } from 'styled-system/patterns'

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
 * A small round count (the bell's unread notifications, a sidebar page's count): its shape and
 * figures. Where it sits and its colours are the caller's.
 */
export const countPill = css({
  minW: '4.5',
  h: '4.5',
  px: '1',
  display: 'grid',
  placeItems: 'center',
  borderRadius: 'full',
  fontSize: '10px',
  fontWeight: 'bold',
  lineHeight: '1',
  fontVariantNumeric: 'tabular-nums',
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
export const dialogActions = flex({ justify: 'flex-end', gap: '3', wrap: 'wrap' })
/** The keyboard focus ring of a link that is drawn as a tile or a card. */
export const focusRing = css({
  _focusVisible: {
    outline: '2px solid',
    outlineColor: 'colorPalette.default',
    outlineOffset: '2px',
  },
})
/** A line of small facts about an item (its source, place, score), wrapping when long. */
export const metaLine = wrap({ gap: '2', align: 'center', textStyle: 'xs', color: 'fg.muted' })
/** A row of controls (buttons, filters, a search box) that wraps on a narrow screen. */
export const toolbar = wrap({ gap: '2', align: 'center' })
export const fieldLabel = css({ textStyle: 'sm', fontWeight: 'medium', mb: '1', display: 'block' })

/** A row of filter pills, and each pill: pressed, it takes the accent colour. */
export const filterPills = wrap({ gap: '1.5' })
export const filterPill = css({
  px: '2.5',
  py: '1',
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border.default',
  textStyle: 'xs',
  fontWeight: 'medium',
  cursor: 'pointer',
  bg: 'bg.default',
  '&[aria-pressed=true]': {
    bg: 'colorPalette.default',
    color: 'colorPalette.fg',
    borderColor: 'colorPalette.default',
  },
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
/** A list of cards (endpoints, requests), and a card as a row: what it is, then its buttons. */
export const cardList = css({ display: 'grid', gap: '2', listStyle: 'none', p: '0', m: '0' })
export const cardRow = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'minmax(0, 1fr) auto' },
  gap: '3',
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

/** A plain list table in its bordered box, scrolling sideways when it must. */
export const tableWrap = css({
  overflowX: 'auto',
  // its screen-reader-only labels (absolutely placed) stay inside it, not widening the page
  position: 'relative',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
})
export const dataTable = css({
  w: 'full',
  borderCollapse: 'collapse',
  textStyle: 'sm',
  '& th': {
    textAlign: 'left',
    fontWeight: 'semibold',
    color: 'fg.muted',
    textStyle: 'xs',
    px: '3',
    py: '2.5',
    borderBottomWidth: '1px',
    borderColor: 'border.subtle',
    whiteSpace: 'nowrap',
  },
  // a number column's heading sits over its right-aligned figures
  '& th[data-align=end]': { textAlign: 'right' },
  '& td': {
    px: '3',
    py: '2.5',
    borderBottomWidth: '1px',
    borderColor: 'border.subtle',
    verticalAlign: 'middle',
  },
  '& tr:last-child td': { borderBottomWidth: '0' },
})
/** A name that links to its item's page. */
export const nameLink = css({
  fontWeight: 'medium',
  color: 'fg.default',
  _hover: { textDecoration: 'underline' },
  overflowWrap: 'anywhere',
})

// the styles of the account screens, in their own module so that /login loads only them
export { callout, formStack, grid2 } from './form-styles.ts'
