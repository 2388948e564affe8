import { Link } from '@tanstack/react-router'
import { Compass } from 'lucide-react'
import { Button } from '../../components/ui'
import { EmptyState } from '../empty-state.tsx'

/**
 * An address that leads nowhere, inside the app (issue 30): the navigation stays, and the way
 * home is offered. Signed-out visitors meet the guard first, which takes them to sign in.
 */
export default function NotFoundPage() {
  return (
    <EmptyState
      icon={Compass}
      title="There is no page at this address"
      action={
        <Button asChild>
          <Link to="/">Go to Home</Link>
        </Button>
      }
    >
      The link may be mistyped, or what it pointed to may have been deleted. Everything in Quire can
      be reached from the navigation.
    </EmptyState>
  )
}
