import { FolderOpen } from 'lucide-react'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

export default function RepositoryPage() {
  return (
    <>
      <PageHeader
        title="Repository"
        description="Your documents: policies, reports and evidence that answers are drawn from."
      />
      <EmptyState icon={FolderOpen} title="No documents yet">
        Uploading, tagging and reprocessing documents arrives with the knowledge release. Documents
        you add will be parsed, indexed and cited as evidence.
      </EmptyState>
    </>
  )
}
