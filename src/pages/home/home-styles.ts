import { css, cx } from 'styled-system/css'
import { focusRing } from '../../components/styles.ts'

/** What home's sections share: a heading, the link to the whole list, and a bordered list. */

export const sectionHeading = css({ textStyle: 'lg', fontWeight: 'semibold' })

export const allLink = cx(
  css({
    display: 'flex',
    alignItems: 'center',
    gap: '1',
    textStyle: 'sm',
    fontWeight: 'medium',
    color: 'colorPalette.text',
    textDecoration: 'none',
    _hover: { textDecoration: 'underline' },
  }),
  focusRing,
)

export const borderedList = css({
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
  overflow: 'hidden',
  '& > li + li': { borderTopWidth: '1px', borderColor: 'border.subtle' },
})
