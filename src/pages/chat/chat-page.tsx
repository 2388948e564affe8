import { MessagesSquare } from 'lucide-react'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'

export default function ChatPage() {
  return (
    <>
      <PageHeader
        title="Chat"
        description="Ask security and compliance questions, answered from your own documents."
      />
      <EmptyState icon={MessagesSquare} title="No conversations yet">
        Chat sessions will be listed here once the assistant is connected to your knowledge.
      </EmptyState>
    </>
  )
}
