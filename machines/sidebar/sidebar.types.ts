// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `expanded`: the desktop rail shows labels. `mobileOpen`: the slide-over panel is on screen. */
export type SidebarTags = 'expanded' | 'mobileOpen'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** The trigger button or Ctrl/Cmd+B: the slide-over on mobile, expand/collapse otherwise. */
export type SidebarToggleEvent = { type: 'toggle' }
export type SidebarExpandEvent = { type: 'expand' }
export type SidebarCollapseEvent = { type: 'collapse' }
export type SidebarMobileOpenEvent = { type: 'mobile.open' }
export type SidebarMobileCloseEvent = { type: 'mobile.close' }
/** A link in the sidebar was followed. */
export type SidebarNavigateEvent = { type: 'navigate' }
/** The viewport crossed the mobile breakpoint (`MOBILE_BREAKPOINT_PX`). */
export type SidebarViewportChangeEvent = { type: 'viewport.change'; isMobile: boolean }

export type SidebarEvents =
  | SidebarToggleEvent
  | SidebarExpandEvent
  | SidebarCollapseEvent
  | SidebarMobileOpenEvent
  | SidebarMobileCloseEvent
  | SidebarNavigateEvent
  | SidebarViewportChangeEvent

/**
 * XState's start event. It carries the input, so the desktop region's first eventless transition
 * reads the cookie value from it instead of keeping a stale copy in context.
 */
export type SidebarInitEvent = { type: 'xstate.init'; input: SidebarInput }

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface SidebarInput {
  /** The saved state from the `sidebar_state` cookie (7 days), read by the app. */
  expanded: boolean
  /** Whether the viewport is below the mobile breakpoint at start. */
  isMobile: boolean
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface SidebarContext {
  isMobile: boolean
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** The desktop state changed: the app writes the cookie. */
export type SidebarPersistEmitted = { type: 'persist'; expanded: boolean }

export type SidebarEmitted = SidebarPersistEmitted

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// None: the sidebar has no timers (tooltips inside it open at once, SIDEBAR_TOOLTIP_OPEN_DELAY_MS).

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface SidebarSchema {
  context: SidebarContext
  events: SidebarEvents
  input: SidebarInput
  emitted: SidebarEmitted
  tags: SidebarTags
}
