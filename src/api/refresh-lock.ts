/** Tabs share the stored tokens; one refresh at a time across them (refresh tokens rotate). */
const REFRESH_LOCK = 'quire-token-refresh'

type LockManager = { request: (name: string, callback: () => Promise<unknown>) => Promise<unknown> }

/** Runs `task` holding a cross-tab lock where the browser offers one (Web Locks), else directly. */
export async function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks
  if (!locks) return task()
  let result: T | undefined
  await locks.request(REFRESH_LOCK, async () => {
    result = await task()
  })
  return result as T
}
