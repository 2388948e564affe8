import type { SnapshotFrom } from 'xstate'
import type { OwnerOption, ownerChoicesMachine } from './owner-choices.machine.ts'

export * from './owner-choices.machine.ts'

type Snapshot = SnapshotFrom<typeof ownerChoicesMachine>

/** What the item editor's owner and cycle fields read, through `useView`. */
export const ownerChoicesView = {
  people: (s: Snapshot) => s.context.people,
  reviewCycleDays: (s: Snapshot) => s.context.reviewCycleDays,
}

/**
 * The people the owner field offers, by name: the organisation's (when the caller may list them),
 * with the caller and the item's current owner always among them, each once.
 */
export function ownerOptions(
  people: OwnerOption[] | null,
  self: OwnerOption | null,
  current: OwnerOption | null,
): OwnerOption[] {
  const options = new Map<number, OwnerOption>()
  for (const person of [...(people ?? []), self, current])
    if (person && !options.has(person.id)) options.set(person.id, person)
  return [...options.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** The owner select's choices: nobody, then each person by name, the caller marked '(you)'. */
export function ownerSelectOptions(people: OwnerOption[], selfId: number | null) {
  return [
    { value: '', label: 'No owner' },
    ...people.map((person) => ({
      value: String(person.id),
      label: person.id === selfId ? `${person.name} (you)` : person.name,
    })),
  ]
}
