import { css } from 'styled-system/css'

/** The Knowledge Base's dialogs: wider than the repository's, for long answers and previews. */
export const dialogContent = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
  p: { base: '4', sm: '6' },
  w: { base: 'calc(100vw - 2rem)', sm: 'xl' },
  maxH: 'calc(100dvh - 2rem)',
  overflowY: 'auto',
})
export const grid2 = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
  gap: '4',
})
