import { assign, setup } from 'xstate'
import type { ToastSchema } from './toast.types.ts'

export const toastMachine = setup({
  types: {} as ToastSchema,
  actions: {
    setDuration: assign((_, params: { duration: number | null }) => ({
      duration: params.duration,
    })),
  },
  guards: {
    staysUntilDismissed: ({ context }) => context.duration === null,
  },
  delays: {
    // `counting` is only entered with a number; null (until dismissed) goes to `pinned`.
    toastDuration: ({ context }) => context.duration ?? Number.POSITIVE_INFINITY,
  },
}).createMachine({
  id: 'toast',
  description:
    'One toast, spawned by the toaster with the toast id as its actor id. It waits in a queue until there is room on screen, times out after its duration, and finishes (final) when it leaves.',
  context: ({ input }) => ({ id: input.id, duration: input.duration }),
  initial: 'queued',
  on: {
    dismiss: { target: '.dismissed' },
    update: {
      description: 'A new duration for a toast that is not counting; it applies when it shows.',
      actions: { type: 'setDuration', params: ({ event }) => ({ duration: event.duration }) },
    },
  },
  states: {
    queued: {
      description: 'Waiting behind the three visible toasts; no timer runs.',
      on: { reveal: { target: 'visible' } },
    },
    visible: {
      description: 'On screen, top-right.',
      initial: 'starting',
      on: {
        pause: { target: 'paused' },
        update: {
          description: 'A show with the same id restarts the timer with the new duration.',
          target: 'visible',
          reenter: true,
          actions: { type: 'setDuration', params: ({ event }) => ({ duration: event.duration }) },
        },
      },
      states: {
        starting: {
          description: 'Chooses at once between a timed and an until-dismissed toast.',
          always: [{ guard: 'staysUntilDismissed', target: 'pinned' }, { target: 'counting' }],
        },
        counting: {
          description:
            'The timer runs for the full duration (4 s by default) from the moment the toast shows or resumes.',
          after: { toastDuration: { target: '#toast.dismissed' } },
        },
        pinned: {
          description: 'Duration null (or Infinity): stays until dismissed.',
        },
      },
    },
    paused: {
      description:
        'The pointer is over the toast; the timer is cancelled. Resuming restarts the full duration: the remaining time is not tracked, because actions cannot read the clock.',
      on: { resume: { target: 'visible' } },
    },
    dismissed: {
      description:
        'Timed out or dismissed; the toaster removes it and shows the next queued toast.',
      type: 'final',
    },
  },
  output: ({ context }) => ({ id: context.id }),
})
