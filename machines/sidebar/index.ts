import type { SnapshotFrom } from 'xstate'
import type { sidebarMachine } from './sidebar.machine.ts'

export { sidebarMachine } from './sidebar.machine.ts'
export type * from './sidebar.types.ts'

export type SidebarSnapshot = SnapshotFrom<typeof sidebarMachine>

/** The desktop rail shows labels (what the cookie holds). */
export const selectExpanded = (snapshot: SidebarSnapshot): boolean => snapshot.hasTag('expanded')

/** The mobile slide-over panel is open. */
export const selectMobileOpen = (snapshot: SidebarSnapshot): boolean =>
  snapshot.hasTag('mobileOpen')

/** The viewport is below the mobile breakpoint. */
export const selectIsMobile = (snapshot: SidebarSnapshot): boolean => snapshot.context.isMobile
