import { BookOpen } from 'lucide-react'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

export default function KnowledgeBasePage() {
  return (
    <>
      <PageHeader
        title="Knowledge Base"
        description="Approved question-and-answer pairs, data items and files."
      />
      <EmptyState icon={BookOpen} title="Your library is empty">
        Approved answers, data items and files will appear here, ready to be reused in every
        questionnaire.
      </EmptyState>
    </>
  )
}
