import { assign, emit, fromPromise, setup } from 'xstate'
import { USER_TEXTS } from '../../contract/users.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { MAGIC_LINK_FAILED_REDIRECT_MS } from '../constants.ts'
import type { MagicLinkRequest, MagicLinkResult, MagicLinkSchema } from './magic-link.types.ts'

const mustBeProvided = mustBeProvidedIn('magicLinkMachine')

/**
 * /magic-link?uid&token: an administrator's one-time sign-in link. The page redeems it by itself
 * with a POST (a mail scanner's GET of the page spends nothing: LT9); a redeemed link signs the
 * person in, or sends them to set their own password first; a failure says so and goes to /login.
 */
export const magicLinkMachine = setup({
  types: {} as MagicLinkSchema,
  actors: {
    redeemMagicLink: fromPromise<MagicLinkResult, MagicLinkRequest>(
      mustBeProvided('redeemMagicLink'),
    ),
  },
  actions: {
    showFailure: assign({ error: USER_TEXTS.invalidMagicLink }),
    signIn: emit((_, result: MagicLinkResult) => ({
      type: 'signedIn' as const,
      claims: result.claims,
    })),
    goToPasswordChange: emit({ type: 'navigate', to: '/force-password-change' } as const),
    goToLogin: emit({ type: 'navigate', to: '/login' } as const),
  },
  guards: {
    linkIsIncomplete: ({ context }) => !context.uid || !context.token,
    mustChangePassword: (_, result: MagicLinkResult) => result.requiresPasswordChange,
  },
  delays: {
    failedRedirect: MAGIC_LINK_FAILED_REDIRECT_MS,
  },
}).createMachine({
  id: 'magicLink',
  context: ({ input }) => ({ uid: input.uid || null, token: input.token || null, error: null }),
  initial: 'signingIn',
  states: {
    signingIn: {
      description:
        "'Signing you in...': redeems the link once. A link without uid or token is invalid at once.",
      tags: ['loading'],
      always: { guard: 'linkIsIncomplete', target: 'failed', actions: 'showFailure' },
      invoke: {
        id: 'redeemMagicLink',
        src: 'redeemMagicLink',
        input: ({ context }) => ({ uid: context.uid ?? '', token: context.token ?? '' }),
        onDone: [
          {
            guard: { type: 'mustChangePassword', params: ({ event }) => event.output },
            target: 'passwordChangeRequired',
          },
          {
            target: 'signedIn',
            actions: { type: 'signIn', params: ({ event }) => event.output },
          },
        ],
        onError: { target: 'failed', actions: 'showFailure' },
      },
    },
    signedIn: {
      description: 'The tokens are stored; the session signs in and the person goes to /.',
      type: 'final',
    },
    passwordChangeRequired: {
      description: 'A temporary password is pending: on to /force-password-change.',
      type: 'final',
      entry: 'goToPasswordChange',
    },
    failed: {
      description: 'Says the link is invalid or expired, then goes to /login after a pause.',
      after: { failedRedirect: { actions: 'goToLogin' } },
    },
  },
})
