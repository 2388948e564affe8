import { enqueueActions, sendTo, setup } from 'xstate'
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '../constants.ts'
import { toastMachine } from './toast.machine.ts'
import type { Toast, ToasterContext, ToasterSchema, ToastInput } from './toaster.types.ts'

/** Visible first, then queued: the order toasts show in. */
const listed = (context: ToasterContext): Toast[] => [...context.visible, ...context.queued]

const isListed = (context: ToasterContext, id: string | undefined): boolean =>
  id !== undefined && listed(context).some((toast) => toast.id === id)

/** The first free `toast-<n>`: a caller's own id may already look like a generated one. */
const freeNumber = (context: ToasterContext): number => {
  let number = context.nextId
  while (isListed(context, `toast-${number}`)) number += 1
  return number
}

const toToast = (input: ToastInput, id: string): Toast => ({
  id,
  title: input.title,
  type: input.type,
  duration:
    input.duration === undefined
      ? TOAST_DURATION_MS
      : input.duration === null || input.duration === Number.POSITIVE_INFINITY
        ? null
        : input.duration,
  ...(input.description === undefined ? {} : { description: input.description }),
  ...(input.action === undefined ? {} : { action: input.action }),
})

export const toasterMachine = setup({
  types: {} as ToasterSchema,
  actors: { toast: toastMachine },
  actions: {
    showToast: enqueueActions(({ context, enqueue }, params: { toast: ToastInput }) => {
      const number = params.toast.id === undefined ? freeNumber(context) : context.nextId
      const toast = toToast(params.toast, params.toast.id ?? `toast-${number}`)
      const fits = context.visible.length < TOAST_MAX_VISIBLE
      enqueue.assign({
        visible: fits ? [...context.visible, toast] : context.visible,
        queued: fits ? context.queued : [...context.queued, toast],
        nextId: params.toast.id === undefined ? number + 1 : context.nextId,
      })
      enqueue.spawnChild('toast', {
        id: toast.id,
        input: { id: toast.id, duration: toast.duration },
      })
      if (fits) enqueue.sendTo(toast.id, { type: 'reveal' })
    }),
    updateToast: enqueueActions(({ context, enqueue }, params: { toast: ToastInput }) => {
      const { id } = params.toast
      if (id === undefined) return
      const toast = toToast(params.toast, id)
      const replace = (toasts: Toast[]) => toasts.map((old) => (old.id === id ? toast : old))
      enqueue.assign({ visible: replace(context.visible), queued: replace(context.queued) })
      enqueue.sendTo(id, { type: 'update', duration: toast.duration })
    }),
    removeToast: enqueueActions(({ context, enqueue }, params: { id: string }) => {
      const remaining = listed(context).filter((toast) => toast.id !== params.id)
      const visible = remaining.slice(0, TOAST_MAX_VISIBLE)
      enqueue.assign({ visible, queued: remaining.slice(TOAST_MAX_VISIBLE) })
      enqueue.stopChild(params.id)
      for (const toast of visible) {
        if (!context.visible.some((old) => old.id === toast.id)) {
          enqueue.sendTo(toast.id, { type: 'reveal' })
        }
      }
    }),
    removeAll: enqueueActions(({ context, enqueue }) => {
      for (const toast of listed(context)) enqueue.stopChild(toast.id)
      enqueue.assign({ visible: [], queued: [] })
    }),
    emitAction: enqueueActions(({ context, enqueue }, params: { id: string }) => {
      const key = listed(context).find((toast) => toast.id === params.id)?.action?.key
      if (key !== undefined) enqueue.emit({ type: 'action', id: params.id, key })
    }),
    pauseToast: sendTo((_, params: { id: string }) => params.id, { type: 'pause' }),
    resumeToast: sendTo((_, params: { id: string }) => params.id, { type: 'resume' }),
  },
  guards: {
    isListed: ({ context }, params: { id: string | undefined }) => isListed(context, params.id),
    isVisible: ({ context }, params: { id: string }) =>
      context.visible.some((toast) => toast.id === params.id),
    hasAction: ({ context }, params: { id: string }) =>
      listed(context).some((toast) => toast.id === params.id && toast.action !== undefined),
    isEmpty: ({ context }) => listed(context).length === 0,
  },
}).createMachine({
  id: 'toaster',
  description:
    'App-wide toasts, top-right. At most three are visible; later ones queue and show, and only then start their timer, when a visible one leaves. Each toast is a child actor (toast.machine.ts) whose id is the toast id.',
  context: { visible: [], queued: [], nextId: 1 },
  initial: 'empty',
  states: {
    empty: {
      description: 'No toasts.',
      on: {
        'toast.show': {
          target: 'showing',
          actions: { type: 'showToast', params: ({ event }) => ({ toast: event.toast }) },
        },
      },
    },
    showing: {
      description:
        'At least one toast. Dismissals update the lists in the same step (the child is stopped); a child that times out finishes and is removed on its done event.',
      always: { guard: 'isEmpty', target: 'empty' },
      on: {
        'toast.show': [
          {
            description: 'Same id: replace the data in place and restart its timer.',
            guard: { type: 'isListed', params: ({ event }) => ({ id: event.toast.id }) },
            actions: { type: 'updateToast', params: ({ event }) => ({ toast: event.toast }) },
          },
          {
            description: 'New: visible if fewer than three are, otherwise queued.',
            actions: { type: 'showToast', params: ({ event }) => ({ toast: event.toast }) },
          },
        ],
        'toast.dismiss': {
          guard: { type: 'isListed', params: ({ event }) => ({ id: event.id }) },
          actions: { type: 'removeToast', params: ({ event }) => ({ id: event.id }) },
        },
        'toast.action': {
          guard: { type: 'hasAction', params: ({ event }) => ({ id: event.id }) },
          actions: [
            { type: 'emitAction', params: ({ event }) => ({ id: event.id }) },
            { type: 'removeToast', params: ({ event }) => ({ id: event.id }) },
          ],
        },
        'toast.dismissAll': { target: 'empty', actions: 'removeAll' },
        'toast.pause': {
          guard: { type: 'isVisible', params: ({ event }) => ({ id: event.id }) },
          actions: { type: 'pauseToast', params: ({ event }) => ({ id: event.id }) },
        },
        'toast.resume': {
          guard: { type: 'isVisible', params: ({ event }) => ({ id: event.id }) },
          actions: { type: 'resumeToast', params: ({ event }) => ({ id: event.id }) },
        },
        'xstate.done.actor.*': {
          description: 'A toast child finished (timed out): remove it and show the next queued.',
          actions: { type: 'removeToast', params: ({ event }) => ({ id: event.actorId }) },
        },
      },
    },
  },
})
