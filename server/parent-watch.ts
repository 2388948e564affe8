import { readFileSync } from 'node:fs'

/**
 * `npm start` runs the server as npm → shell → node. npm passes SIGTERM and SIGINT to the shell,
 * which dies without passing them on; a killed npm passes nothing. Either way the server would run
 * on with no parent, its PostgreSQL with it. So the server watches the processes above it and
 * stops when they go.
 */

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ash', 'ksh'])

/** A process's parent and command name, from /proc (Linux); undefined elsewhere or when gone. */
function processInfo(pid: number): { parent: number; name: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (name) state ppid ...": the name may hold spaces and parentheses
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { parent: Number(fields[1]), name }
  } catch {
    return undefined
  }
}

/** Who started this process, read as it loads: a parent that goes during start-up still counts. */
const parent = process.ppid
const shell = processInfo(parent)
const grandparent = shell && SHELLS.has(shell.name) ? shell.parent : undefined

/**
 * Calls `onGone` once when this process's parent goes, or, when the parent is a shell (npm runs
 * scripts in one), when the shell's own parent goes. Returns a function that stops watching.
 */
export function watchParents(onGone: () => void, everyMs = 500): () => void {
  const timer = setInterval(() => {
    const gone =
      process.ppid !== parent ||
      (grandparent !== undefined && processInfo(parent)?.parent !== grandparent)
    if (!gone) return
    clearInterval(timer)
    onGone()
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
