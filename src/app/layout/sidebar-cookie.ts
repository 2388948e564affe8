import { SIDEBAR_COOKIE_MAX_AGE_S, SIDEBAR_COOKIE_NAME } from '../../../machines/constants.ts'

/** The sidebar's expanded state lives in a cookie for 7 days (spec section 4 and 9). */
export function readSidebarCookie(): boolean {
  const entry = document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SIDEBAR_COOKIE_NAME}=`))
  return entry ? entry.slice(SIDEBAR_COOKIE_NAME.length + 1) !== 'false' : true
}

export function writeSidebarCookie(expanded: boolean) {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser
  document.cookie = `${SIDEBAR_COOKIE_NAME}=${expanded}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; samesite=lax`
}
