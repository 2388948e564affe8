import { getRouteApi } from '@tanstack/react-router'
import { ClipboardList } from 'lucide-react'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

const route = getRouteApi('/_app/questionnaire/$id')

/** 'Questionnaire Automation': the answers of one questionnaire. */
export default function QuestionnairePage() {
  const { id } = route.useParams()
  return (
    <>
      <PageHeader
        title={id > 0 ? `Questionnaire ${id}` : 'Questionnaire'}
        description="Review, edit, approve and export the answers of one questionnaire."
      />
      <EmptyState icon={ClipboardList} title="No questionnaire selected">
        {id > 0
          ? `Questionnaire ${id} has no answers to show yet.`
          : 'Open a questionnaire from the Questionnaires page to review its answers.'}
      </EmptyState>
    </>
  )
}
