import { assign, emit, setup } from 'xstate'
import type { SidebarEvents, SidebarInitEvent, SidebarSchema } from './sidebar.types.ts'

export const sidebarMachine = setup({
  types: {} as SidebarSchema,
  actions: {
    persist: emit((_, params: { expanded: boolean }) => ({
      type: 'persist' as const,
      expanded: params.expanded,
    })),
    setViewport: assign((_, params: { isMobile: boolean }) => ({ isMobile: params.isMobile })),
  },
  guards: {
    isMobile: ({ context }) => context.isMobile,
    isDesktop: ({ context }) => !context.isMobile,
    cookieSaysCollapsed: ({ event }) => {
      const start = event as SidebarEvents | SidebarInitEvent
      return start.type === 'xstate.init' && !start.input.expanded
    },
  },
}).createMachine({
  id: 'sidebar',
  description:
    'The app sidebar: a rail that is expanded or collapsed on desktop (kept in a 7-day cookie), and a slide-over panel below 768 px.',
  type: 'parallel',
  context: ({ input }) => ({ isMobile: input.isMobile }),
  on: {
    'viewport.change': {
      description:
        'Kept here, on the root: no region handles this event, so XState selects this transition.',
      actions: { type: 'setViewport', params: ({ event }) => ({ isMobile: event.isMobile }) },
    },
  },
  states: {
    desktop: {
      description:
        'The rail beside the page. Its state survives the mobile layout, so the preference is kept while the slide-over is used.',
      initial: 'restoring',
      states: {
        restoring: {
          description: 'Settles at once on the state saved in the cookie (expanded when none).',
          always: [{ guard: 'cookieSaysCollapsed', target: 'collapsed' }, { target: 'expanded' }],
        },
        expanded: {
          description: 'Icons with labels, 4.5rem wide.',
          tags: 'expanded',
          on: {
            collapse: {
              target: 'collapsed',
              actions: { type: 'persist', params: { expanded: false } },
            },
            toggle: {
              guard: 'isDesktop',
              target: 'collapsed',
              actions: { type: 'persist', params: { expanded: false } },
            },
          },
        },
        collapsed: {
          description: 'Icons only, 3rem wide; labels show as tooltips.',
          on: {
            expand: {
              target: 'expanded',
              actions: { type: 'persist', params: { expanded: true } },
            },
            toggle: {
              guard: 'isDesktop',
              target: 'expanded',
              actions: { type: 'persist', params: { expanded: true } },
            },
          },
        },
      },
    },
    mobile: {
      description: 'The slide-over panel, 5rem wide, used only below the mobile breakpoint.',
      initial: 'closed',
      states: {
        closed: {
          description: 'No panel; the trigger button shows in the header on mobile.',
          on: {
            'mobile.open': { guard: 'isMobile', target: 'open' },
            toggle: { guard: 'isMobile', target: 'open' },
          },
        },
        open: {
          description:
            'The panel covers the page. It exists only on mobile: once the viewport is desktop it closes at once, so toggle needs no guard here.',
          tags: 'mobileOpen',
          always: { guard: 'isDesktop', target: 'closed' },
          on: {
            'mobile.close': { target: 'closed' },
            toggle: { target: 'closed' },
            navigate: { target: 'closed' },
          },
        },
      },
    },
  },
})
