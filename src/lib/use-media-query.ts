import { useSyncExternalStore } from 'react'

/**
 * Whether a media query matches, following its changes; true where there is no `matchMedia`
 * (server rendering, old test environments), so that the wide layout is the default.
 */
export function useMediaQuery(query: string) {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {}
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    () =>
      typeof window === 'undefined' || !window.matchMedia ? true : window.matchMedia(query).matches,
    () => true,
  )
}
