import { css } from 'styled-system/css'

/** Styles shared by the answer panel's parts. */
export const panel = css({ display: 'flex', flexDirection: 'column', gap: '4', minW: '0' })
export const meta = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  alignItems: 'center',
  textStyle: 'xs',
  color: 'fg.muted',
})
export const refClass = css({ fontFamily: 'mono', fontWeight: 'semibold', color: 'fg.default' })
export const questionText = css({ textStyle: 'md', fontWeight: 'medium', lineHeight: '1.5' })
export const sectionTitle = css({
  textStyle: 'xs',
  fontWeight: 'semibold',
  textTransform: 'uppercase',
  letterSpacing: '0.04em',
  color: 'fg.muted',
  mb: '1.5',
})
export const answerBox = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.subtle',
  whiteSpace: 'pre-wrap',
  textStyle: 'sm',
  lineHeight: '1.6',
  minH: '16',
  overflowWrap: 'anywhere',
})
export const muted = css({ color: 'fg.muted', fontStyle: 'italic' })
export const reason = css({ mt: '2', textStyle: 'sm', color: 'fg.muted' })
export const choicePill = css({
  display: 'inline-flex',
  alignItems: 'center',
  px: '2.5',
  py: '0.5',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  colorPalette: 'green',
  color: 'colorPalette.text',
  fontWeight: 'semibold',
  textStyle: 'sm',
})
export const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '2' })
export const alert = css({
  display: 'flex',
  gap: '2',
  alignItems: 'flex-start',
  p: '3',
  borderRadius: 'l2',
  bg: 'red.a3',
  color: 'red.text',
  textStyle: 'sm',
})
export const candidateList = css({ display: 'flex', flexDirection: 'column', gap: '2' })
export const candidate = css({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: '2',
  p: '2.5',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  textStyle: 'sm',
  '&[data-selected]': { borderColor: 'colorPalette.default', bg: 'colorPalette.a2' },
})
export const sourceItem = css({
  p: '2.5',
  borderLeftWidth: '3px',
  borderColor: 'colorPalette.default',
  bg: 'bg.subtle',
  borderRadius: 'l1',
  textStyle: 'sm',
})
export const sourceTitle = css({
  display: 'flex',
  gap: '1.5',
  alignItems: 'center',
  fontWeight: 'semibold',
  mb: '1',
})
export const hint = css({ textStyle: 'xs', color: 'fg.muted' })
