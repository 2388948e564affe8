import { css } from 'styled-system/css'
import { flex, stack, wrap } from 'styled-system/patterns'
import { callout, metaLine } from '../styles.ts'

/** Styles shared by the answer panel's parts. */
export const panel = stack({ gap: '4', minW: '0' })
export const meta = metaLine
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
export const actions = wrap({ gap: '2' })
export const alert = callout({ tone: 'red' })
export const candidateList = stack({ gap: '2' })
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
export const sourceTitle = flex({ gap: '1.5', align: 'center', fontWeight: 'semibold', mb: '1' })
export const hint = css({ textStyle: 'xs', color: 'fg.muted' })
