import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate'
import { getStateNodes } from './graph.ts'

/**
 * A machine's view as path tests read it: its `index.ts` module (`import * as flow from
 * '../../machines/<flow>/index.ts'`) or an object naming some of its exports. Its selectors are
 * the `select*` functions of one argument and every value of its view maps (plain objects whose
 * values are all functions, the `…View` maps pages read through `useView`).
 */
export type ViewSource = Readonly<Record<string, unknown>>

interface Selector {
  /** `fileListView.busy`, `selectIsLoading`. */
  name: string
  /** What the view calls it: `busy`, `selectIsLoading`. */
  key: string
  select: (snapshot: AnyMachineSnapshot) => unknown
}

type AnyFunction = (...args: never[]) => unknown

const isFunction = (value: unknown): value is AnyFunction => typeof value === 'function'

const isViewMap = (value: unknown): value is Record<string, AnyFunction> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  Object.values(value).length > 0 &&
  Object.values(value).every(isFunction)

/** Selectors of one argument: others (a row's actions by id) need more than a snapshot. */
const ofSnapshot = (select: AnyFunction) => select.length <= 1

export function viewSelectors(source: ViewSource): Selector[] {
  const selectors: Selector[] = []
  for (const [name, value] of Object.entries(source)) {
    if (isFunction(value) && name.startsWith('select') && ofSnapshot(value)) {
      selectors.push({ name, key: name, select: value as Selector['select'] })
    } else if (isViewMap(value)) {
      for (const [key, select] of Object.entries(value)) {
        if (ofSnapshot(select)) {
          selectors.push({ name: `${name}.${key}`, key, select: select as Selector['select'] })
        }
      }
    }
  }
  if (!selectors.length) {
    throw new Error('the view gives no selectors: pass the index.ts module or its view maps')
  }
  return selectors
}

/** Every tag any state node of the machine carries. */
export function machineTags(machine: AnyStateMachine): string[] {
  return [...new Set(getStateNodes(machine.root).flatMap((node) => [...node.tags]))]
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/** `busy`, `isBusy` or `selectIsBusy` reports the tag `busy`. */
const reportsTag = (key: string, tag: string) =>
  key === tag || key === `is${capitalized(tag)}` || key === `selectIs${capitalized(tag)}`

/** Context fields that hold an error for the person to read: `error`, `listError`, `dnsError`. */
const ERROR_FIELD = /(?:^e|E)rror$/

/** The value shows the error: it is the error, says it, or holds it as one of its fields. */
function shows(value: unknown, error: unknown): boolean {
  if (value === error) return true
  if (typeof value === 'string' && typeof error === 'string') return value.includes(error)
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some((field) => field === error)
  }
  return false
}

/** Rules of `checkView` a test leaves to its own assertion. */
export interface ViewCheckExceptions {
  /** Tags whose selectors report them otherwise (a first load only, say). */
  tags?: readonly string[]
  /** An error the context receives is shown otherwise (outside the view's selectors). */
  errors?: true
}

const text = (value: unknown) => JSON.stringify(value) ?? String(value)

/**
 * The default check of a state in a path test, from the machine's tags and its view:
 * 1. every selector reads the state without throwing (the view renders every state);
 * 2. a selector named after a tag (`busy`, `isLoading`, `selectIsLoading`) reports it exactly in
 *    the states that carry it: a state tagged 'busy' shows busy, and nothing else does;
 * 3. an error the step wrote into the context (`error`, `listError`, …; any the first state
 *    holds) is shown by some selector: the value, a text that says it, or an object that holds
 *    it. An error kept from before (a retry that has not answered yet) may be hidden.
 */
export function checkView(
  snapshot: AnyMachineSnapshot,
  selectors: readonly Selector[],
  {
    tags,
    errors,
    before,
  }: {
    tags: readonly string[]
    errors: boolean
    /** The state of the step before on the same path; none for the first. */
    before?: AnyMachineSnapshot
  },
): void {
  const values = new Map<string, unknown>()
  for (const { name, select } of selectors) {
    try {
      values.set(name, select(snapshot))
    } catch (error) {
      throw new Error(`${name} cannot read the state: ${String(error)}`)
    }
  }
  for (const tag of tags) {
    const tagged = snapshot.hasTag(tag)
    for (const { name, key } of selectors) {
      if (!reportsTag(key, tag)) continue
      const value = values.get(name)
      if (Boolean(value) !== tagged) {
        throw new Error(
          tagged
            ? `the state is tagged '${tag}' but ${name} is ${text(value)}`
            : `${name} is ${text(value)} in a state without the tag '${tag}'`,
        )
      }
    }
  }
  if (!errors) return
  const context: Record<string, unknown> = snapshot.context ?? {}
  const earlier: Record<string, unknown> = before?.context ?? {}
  for (const [field, error] of Object.entries(context)) {
    if (!ERROR_FIELD.test(field) || error === null || error === undefined || error === '') continue
    if (earlier[field] === error) continue
    if (![...values.values()].some((value) => shows(value, error))) {
      throw new Error(`context.${field} holds ${text(error)} but no selector shows it`)
    }
  }
}
