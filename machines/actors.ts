/**
 * What a machine's actors do until they are given: views give the real ones (src/api) and tests
 * their own with `machine.provide`. `mustBeProvidedIn('fileListMachine')('loadFiles')` is an actor
 * body that throws 'fileListMachine: the loadFiles actor must be provided' when it runs.
 */
export const mustBeProvidedIn = (machine: string) => (name: string) => (): never => {
  throw new Error(`${machine}: the ${name} actor must be provided`)
}
