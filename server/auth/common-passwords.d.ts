/** fxa-common-password-list ships no types: its whole API is one predicate. */
declare module 'fxa-common-password-list' {
  const list: { test(password: string): boolean }
  export default list
}
