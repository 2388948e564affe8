import { ClipboardList } from 'lucide-react'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

export default function QuestionnairesPage() {
  return (
    <>
      <PageHeader
        title="Questionnaires"
        description="Every questionnaire you were sent, with its progress."
      />
      <EmptyState icon={ClipboardList} title="No questionnaires yet">
        Questionnaires you upload will be analysed here, tab by tab, with drafted answers waiting
        for review.
      </EmptyState>
    </>
  )
}
