import type { ActorRefFrom } from 'xstate'
import {
  type OwnerOption,
  type ownerChoicesMachine,
  ownerChoicesView,
  ownerOptions,
  ownerSelectOptions,
} from '../../machines/owner-choices/index.ts'
import { selectProfile } from '../../machines/session/index.ts'
import { SessionContext } from '../app/session.tsx'
import { useView } from '../app/use-view.ts'

/**
 * What an owner field offers the signed-in person: nobody, the organisation's people as the
 * owner-choices machine read them, the caller ('(you)') and the current owner, each once; and the
 * organisation's review cycle.
 */
export function useOwnerChoices(
  owners: ActorRefFrom<typeof ownerChoicesMachine>,
  current: OwnerOption | null,
) {
  const choices = useView(owners, ownerChoicesView)
  const user = SessionContext.useSelector(selectProfile)?.user ?? null
  const self = user
    ? { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() || user.email }
    : null
  return {
    options: ownerSelectOptions(ownerOptions(choices.people, self, current), self?.id ?? null),
    reviewCycleDays: choices.reviewCycleDays,
  }
}
