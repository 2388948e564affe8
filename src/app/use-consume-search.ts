import { useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'

/**
 * A one-shot query parameter that a page has read into its machine's input leaves the address
 * (replacing the history entry), so a reload or a shared link does not show it again.
 */
export function useConsumeSearch(present: boolean, path: string) {
  const navigate = useNavigate()
  useEffect(() => {
    if (present) void navigate({ to: path, search: {}, replace: true })
  }, [present, path, navigate])
}
