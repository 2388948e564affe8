import { Settings } from 'lucide-react'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

export default function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your organisation, its users, single sign-on and license."
      />
      <EmptyState icon={Settings} title="Nothing to configure yet">
        Organisation details, users and invitations, single sign-on and your license will be managed
        here.
      </EmptyState>
    </>
  )
}
