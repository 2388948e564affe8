import type { DoneActorEvent } from 'xstate'
import type { ToastMachineOutput } from './toast.types.ts'

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

export type ToastType = 'info' | 'success' | 'warning' | 'error'

/** A button on the toast; pressing it emits `action` with the key. */
export interface ToastAction {
  label: string
  key: string
}

/** What a caller passes to show a toast. */
export interface ToastInput {
  /** Generated (`toast-1`, `toast-2`, ...) when absent; an id already shown updates that toast. */
  id?: string
  title: string
  description?: string
  type: ToastType
  /**
   * Milliseconds on screen once visible (default `TOAST_DURATION_MS`); Infinity or null: until
   * dismissed.
   */
  duration?: number | null
  action?: ToastAction
}

/** A toast as the toaster keeps it: id assigned, duration resolved (null: until dismissed). */
export interface Toast {
  id: string
  title: string
  description?: string
  type: ToastType
  duration: number | null
  action?: ToastAction
}

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

// None: views read the lists through `selectVisibleToasts` and `selectQueuedCount`.

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ToasterShowEvent = { type: 'toast.show'; toast: ToastInput }
export type ToasterDismissEvent = { type: 'toast.dismiss'; id: string }
export type ToasterDismissAllEvent = { type: 'toast.dismissAll' }
/** The toast's action button: emits `action` and dismisses the toast. */
export type ToasterActionEvent = { type: 'toast.action'; id: string }
/** Pointer over a visible toast. */
export type ToasterPauseEvent = { type: 'toast.pause'; id: string }
/** Pointer left a visible toast. */
export type ToasterResumeEvent = { type: 'toast.resume'; id: string }
/** A toast child reached its final state (timed out, or was dismissed through its own ref). */
export type ToasterDoneEvent = DoneActorEvent<ToastMachineOutput>

export type ToasterEvents =
  | ToasterShowEvent
  | ToasterDismissEvent
  | ToasterDismissAllEvent
  | ToasterActionEvent
  | ToasterPauseEvent
  | ToasterResumeEvent
  | ToasterDoneEvent

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

// None.

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ToasterContext {
  /** On screen, oldest first; at most `TOAST_MAX_VISIBLE`. */
  visible: Toast[]
  /** Waiting for room, oldest first; their timers have not started. */
  queued: Toast[]
  /** Next number for a generated id, so ids are stable in tests. */
  nextId: number
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** A toast's action button was pressed. */
export type ToasterActionEmitted = { type: 'action'; id: string; key: string }

export type ToasterEmitted = ToasterActionEmitted

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// None here: each toast child owns its timer (`toastDuration` in toast.machine.ts).

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ToasterSchema {
  context: ToasterContext
  events: ToasterEvents
  emitted: ToasterEmitted
}
