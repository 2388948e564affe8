// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

// None: views read toasts through the toaster's selectors.

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** A place among the visible toasts came free (or was free when the toast arrived). */
export type ToastRevealEvent = { type: 'reveal' }
/** The pointer entered the toast. */
export type ToastPauseEvent = { type: 'pause' }
/** The pointer left the toast. */
export type ToastResumeEvent = { type: 'resume' }
export type ToastDismissEvent = { type: 'dismiss' }
/** A show with the same id replaced the toast; `null` means it stays until dismissed. */
export type ToastUpdateEvent = { type: 'update'; duration: number | null }

export type ToastEvents =
  | ToastRevealEvent
  | ToastPauseEvent
  | ToastResumeEvent
  | ToastDismissEvent
  | ToastUpdateEvent

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface ToastMachineInput {
  id: string
  /** Milliseconds on screen; `null` means until dismissed. */
  duration: number | null
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ToastMachineContext {
  id: string
  duration: number | null
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/** Sent to the toaster in `xstate.done.actor.<id>` when the toast leaves. */
export interface ToastMachineOutput {
  id: string
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

// None.

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// `toastDuration`: the toast's own duration, read from context by a delay function in `setup`
// (the toaster fills in `TOAST_DURATION_MS` when a show gives none).

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ToastSchema {
  context: ToastMachineContext
  events: ToastEvents
  input: ToastMachineInput
  output: ToastMachineOutput
}
