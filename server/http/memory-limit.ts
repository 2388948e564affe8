/**
 * A per-key limit kept in this process's memory: for reads of the public trust page (issue 40)
 * and an API key's calls (issue 41), where a database round trip per call would cost more than
 * the call. Fixed windows; a key that
 * went quiet is forgotten at the next sweep. Across nodes each keeps its own count, which is
 * enough against a scraper and costs the database nothing.
 */
export function createMemoryLimiter(rule: { limit: number; windowMs: number }) {
  const windows = new Map<string, { start: number; count: number }>()
  let swept = Date.now()
  return {
    hit(key: string) {
      const now = Date.now()
      if (now - swept > rule.windowMs) {
        for (const [name, window] of windows)
          if (now - window.start >= rule.windowMs) windows.delete(name)
        swept = now
      }
      let window = windows.get(key)
      if (!window || now - window.start >= rule.windowMs) {
        window = { start: now, count: 0 }
        windows.set(key, window)
      }
      window.count += 1
      return {
        limited: window.count > rule.limit,
        retryAfterS: Math.max(1, Math.ceil((window.start + rule.windowMs - now) / 1000)),
      }
    },
  }
}
