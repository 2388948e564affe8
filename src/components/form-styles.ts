import { css, cva } from 'styled-system/css'

/**
 * Styles of forms and messages that the account screens share with the rest of the app. They are
 * written with css() rather than Panda's patterns so that /login, which loads this module first,
 * carries no pattern runtime.
 */

/** A form's fields, one under another. */
export const formStack = css({ display: 'flex', flexDirection: 'column', gap: '4' })
/** Two fields side by side from sm up. */
export const grid2 = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
  gap: '4',
})

/**
 * A message in a tinted box. `tone`: error (the account screens' red), red, amber or info (the
 * accent); `layout`: message (icon at the top of the text) or bar (icon, text and a button on one
 * line, wrapping on a narrow screen).
 */
export const callout = cva({
  base: { display: 'flex', p: '3', borderRadius: 'l2', textStyle: 'sm' },
  variants: {
    tone: {
      error: { bg: 'red.a3', color: 'red.11' },
      red: { bg: 'red.a3', color: 'red.text' },
      amber: { bg: 'amber.a3', color: 'amber.text' },
      info: { bg: 'colorPalette.a3', color: 'colorPalette.text' },
    },
    layout: {
      message: { gap: '2', alignItems: 'flex-start' },
      bar: { gap: '3', alignItems: 'center', flexWrap: 'wrap' },
    },
  },
  defaultVariants: { layout: 'message' },
})
