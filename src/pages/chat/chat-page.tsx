import { useActorRef } from '@xstate/react'
import { MessagesSquare, Pencil, Plus, Trash2 } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex, stack } from 'styled-system/patterns'
import { chatConversationMachine } from '../../../machines/chat-conversation/index.ts'
import { chatSessionsMachine, chatSessionsView } from '../../../machines/chat-sessions/index.ts'
import { chatActors } from '../../api/chat-actors.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { muted } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'
import { Conversation } from './conversation.tsx'

const actors = chatActors()
export const createChatLogic = () => ({
  sessions: chatSessionsMachine.provide({ actors }),
  conversation: chatConversationMachine.provide({ actors }),
})
export type ChatLogic = ReturnType<typeof createChatLogic>
const defaultLogic = createChatLogic()

const layout = css({
  display: 'grid',
  gridTemplateColumns: { base: 'minmax(0, 1fr)', md: '16rem minmax(0, 1fr)' },
  gap: { base: '4', md: '6' },
  alignItems: 'start',
})
const list = stack({ gap: '1' })
const item = flex({
  align: 'center',
  gap: '1',
  borderRadius: 'l2',
  '&[data-selected]': { bg: 'bg.muted' },
})
const itemButton = css({
  flex: '1',
  minW: '0',
  textAlign: 'left',
  px: '3',
  py: '2',
  textStyle: 'sm',
  truncate: true,
  cursor: 'pointer',
  borderRadius: 'l2',
  _hover: { bg: 'bg.subtle' },
})
const mobileHidden = css({ hideBelow: 'md' })
const mobileOnly = css({ hideFrom: 'md' })

type SessionsActor = ReturnType<typeof useActorRef<typeof chatSessionsMachine>>

/** /chat: the conversation list and the open conversation (issue 19). */
export default function ChatPage({ logic = defaultLogic }: { logic?: ChatLogic }) {
  const sessions = useActorRef(logic.sessions)
  const view = useView(sessions, chatSessionsView)
  const selected = view.sessions.find((session) => session.id === view.selectedId) ?? null
  return (
    <>
      <PageHeader description="Ask security and compliance questions, answered from your own documents and approved answers, with their sources." />
      {view.failed ? (
        <RetryAlert
          error={view.error ?? 'The conversations could not be loaded.'}
          onRetry={() => sessions.send({ type: 'retry' })}
        />
      ) : (
        <div className={layout}>
          <aside className={stack({ gap: '3' })} aria-label="Conversations">
            <Button onClick={() => sessions.send({ type: 'create' })} loading={view.busy}>
              <Plus size={16} aria-hidden />
              New conversation
            </Button>
            <Input
              aria-label="Search conversations"
              placeholder="Search conversations"
              value={view.q}
              onChange={(event) => sessions.send({ type: 'search', q: event.target.value })}
            />
            <SimpleSelect
              label="Open a conversation"
              hideLabel
              size="md"
              className={mobileOnly}
              options={view.sessions.map((session) => ({
                value: String(session.id),
                label: session.title,
              }))}
              value={view.selectedId === null ? '' : String(view.selectedId)}
              onChange={(value) => sessions.send({ type: 'select', id: Number(value) })}
            />
            <ul className={cx(list, mobileHidden)}>
              {view.sessions.map((session) => (
                <SessionItem
                  key={session.id}
                  actor={sessions}
                  session={session}
                  selected={session.id === view.selectedId}
                />
              ))}
            </ul>
            {view.error && (
              <p className={css({ color: 'fg.error', textStyle: 'sm' })}>{view.error}</p>
            )}
          </aside>
          {selected ? (
            <Conversation
              key={selected.id}
              logic={logic.conversation}
              session={selected}
              onChanged={() => sessions.send({ type: 'refresh' })}
              onRename={(title) => sessions.send({ type: 'rename', id: selected.id, title })}
              onDelete={() => sessions.send({ type: 'delete', id: selected.id })}
            />
          ) : view.loading ? (
            <p className={muted}>Loading...</p>
          ) : (
            <EmptyState icon={MessagesSquare} title="No conversations yet">
              Start one with New conversation and ask what your documents say.
            </EmptyState>
          )}
        </div>
      )}
    </>
  )
}

function SessionItem(props: {
  actor: SessionsActor
  session: { id: number; title: string }
  selected: boolean
}) {
  return (
    <li className={item} data-selected={props.selected ? '' : undefined}>
      <button
        type="button"
        className={itemButton}
        aria-current={props.selected ? 'true' : undefined}
        onClick={() => props.actor.send({ type: 'select', id: props.session.id })}
      >
        {props.session.title}
      </button>
      {props.selected && (
        <>
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={`Rename ${props.session.title}`}
            onClick={() => {
              const title = window.prompt('Name of the conversation', props.session.title)?.trim()
              if (title) props.actor.send({ type: 'rename', id: props.session.id, title })
            }}
          >
            <Pencil size={14} aria-hidden />
          </IconButton>
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={`Delete ${props.session.title}`}
            onClick={() => {
              if (window.confirm(`Delete “${props.session.title}”?`))
                props.actor.send({ type: 'delete', id: props.session.id })
            }}
          >
            <Trash2 size={14} aria-hidden />
          </IconButton>
        </>
      )}
    </li>
  )
}
