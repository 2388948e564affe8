/**
 * Live streams (issue 37): the words of a refused stream and of the notice a page shows while its
 * live updates are paused. The server sends `resync` on a stream when it may have missed changes
 * (its event listener reconnected): the page reads again what it shows.
 */
export const STREAM_TEXTS = {
  tooMany:
    'Too many live updates are open for your account. Close some tabs of Quire, then try again.',
  paused: 'Live updates paused',
} as const

/** The event a stream receives when the page must reload what it shows. */
export const RESYNC_EVENT = 'resync'
