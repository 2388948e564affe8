import { useActorRef } from '@xstate/react'
import { Copy, FileDown, Pencil, Send, Square, Trash2 } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex, stack, wrap } from 'styled-system/patterns'
import { textarea } from 'styled-system/recipes'
import { CHAT_TEXTS, type ChatMessage, type ChatSession } from '../../../contract/chat.ts'
import type { Citation } from '../../../contract/questionnaires.ts'
import {
  type chatConversationMachine,
  chatConversationView,
} from '../../../machines/chat-conversation/index.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { Button } from '../../components/ui/button.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import { LinearProgress } from '../../components/ui/progress.tsx'
import { knowledgeLink } from '../../lib/citation-links.ts'

const panel = stack({ gap: '4', minW: '0' })
const head = wrap({ justify: 'space-between', align: 'center', gap: '2' })
const title = css({ textStyle: 'lg', fontWeight: 'semibold', minW: '0', truncate: true })
const thread = stack({ gap: '3' })
const bubble = css({
  p: '3',
  borderRadius: 'l3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  bg: 'bg.default',
  maxW: '3xl',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  '&[data-role=user]': { bg: 'colorPalette.a2', alignSelf: 'flex-end', borderColor: 'transparent' },
})
const who = css({ textStyle: 'xs', color: 'fg.muted', mb: '1' })
const sources = css({ mt: '2', pl: '5', textStyle: 'xs', color: 'fg.muted', listStyle: 'decimal' })
const chips = wrap({ gap: '2' })
const chip = css({
  px: '3',
  py: '1',
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border.default',
  textStyle: 'sm',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
})
const composer = flex({ gap: '2', align: 'flex-end' })

const copyText = (message: ChatMessage) =>
  [message.content, ...message.citations.map((c, i) => `[${i + 1}] ${c.title}: ${c.snippet}`)].join(
    '\n',
  )

const openLink = css({
  fontWeight: 'semibold',
  color: 'colorPalette.text',
  textDecoration: 'underline',
  cursor: 'pointer',
})

const composerNote = css({ textStyle: 'xs', color: 'fg.muted' })

function Sources(props: {
  citations: Citation[]
  onOpen?: (fileId: number, page: number | null) => void
}) {
  if (!props.citations.length) return null
  return (
    <ol className={sources} aria-label="Sources">
      {props.citations.map((citation) => {
        const page = citation.location?.page ?? null
        const name = `${citation.title}${page ? `, page ${page}` : ''}`
        const fileId = citation.source === 'file' ? citation.id : null
        const row = knowledgeLink(citation)
        return (
          <li key={`${citation.source}-${citation.id}-${citation.snippet.slice(0, 40)}`}>
            {row ? (
              <a className={openLink} href={row} target="_blank" rel="noopener">
                {name}
              </a>
            ) : fileId !== null && props.onOpen ? (
              <button
                type="button"
                className={openLink}
                onClick={() => props.onOpen?.(fileId, page)}
              >
                {name}
              </button>
            ) : (
              <strong>{name}</strong>
            )}
            : {citation.snippet}
          </li>
        )
      })}
    </ol>
  )
}

/** One conversation: renders the conversation machine and sends its events. */
export function Conversation(props: {
  logic: typeof chatConversationMachine
  session: ChatSession
  onChanged: () => void
  onRename: (title: string) => void
  onDelete: () => void
}) {
  const chat = useActorRef(props.logic, { input: { sessionId: props.session.id } })
  const view = useView(chat, chatConversationView)
  useEmitted(() => [chat.on('changed', props.onChanged)], [chat, props.onChanged])
  const quota = view.quota
  return (
    <section className={panel} aria-label="Conversation">
      <div className={head}>
        <h2 className={title}>{props.session.title}</h2>
        <div className={flex({ gap: '1' })}>
          <IconButton
            size="sm"
            variant="ghost"
            aria-label="Rename conversation"
            onClick={() => {
              const name = window.prompt('Name of the conversation', props.session.title)?.trim()
              if (name) props.onRename(name)
            }}
          >
            <Pencil size={16} aria-hidden />
          </IconButton>
          <Button
            size="sm"
            variant="outline"
            onClick={() => chat.send({ type: 'export', format: 'markdown' })}
          >
            <FileDown size={16} aria-hidden />
            Markdown
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => chat.send({ type: 'export', format: 'pdf' })}
          >
            <FileDown size={16} aria-hidden />
            PDF
          </Button>
          <IconButton
            size="sm"
            variant="ghost"
            aria-label="Delete conversation"
            onClick={() => {
              if (window.confirm(`Delete “${props.session.title}”?`)) props.onDelete()
            }}
          >
            <Trash2 size={16} aria-hidden />
          </IconButton>
        </div>
      </div>
      {quota && quota.limit !== null && (
        <LinearProgress
          size="sm"
          label="Questions this month"
          value={Math.min(100, Math.round((quota.used / quota.limit) * 100))}
          valueText={`${quota.used} of ${quota.limit}`}
        />
      )}
      <div className={thread} aria-live="polite">
        {view.messages.map((message) => (
          <article
            key={message.id}
            className={bubble}
            data-role={message.role}
            aria-label={message.role === 'user' ? 'Your question' : 'Answer'}
          >
            <p className={who}>
              {message.role === 'user' ? 'You' : 'Quire'}
              {message.status === 'stopped' ? ' · stopped' : ''}
            </p>
            {message.content}
            {message.role === 'assistant' && (
              <>
                <Sources
                  citations={message.citations}
                  onOpen={(fileId, page) => chat.send({ type: 'source.open', fileId, page })}
                />
                <Button
                  size="xs"
                  variant="ghost"
                  onClick={() => void navigator.clipboard?.writeText(copyText(message))}
                >
                  <Copy size={14} aria-hidden />
                  Copy
                </Button>
              </>
            )}
          </article>
        ))}
        {view.asking && (view.streaming || view.loading || view.failed) && (
          <>
            <article className={bubble} data-role="user" aria-label="Your question">
              <p className={who}>You</p>
              {view.asking}
            </article>
            {(view.streaming || view.streamed) && (
              <article className={bubble} aria-label="Answer" aria-busy={view.streaming}>
                <p className={who}>Quire</p>
                {view.streamed || 'Looking in your documents...'}
                <Sources citations={view.citations} />
              </article>
            )}
          </>
        )}
      </div>
      {view.failed && view.error && (
        <RetryAlert error={view.error} onRetry={() => chat.send({ type: 'retry' })} />
      )}
      {view.exhausted && view.error && (
        <p role="alert" className={css({ color: 'fg.error', textStyle: 'sm' })}>
          {view.error}
        </p>
      )}
      {!view.streaming && view.followUps.length > 0 && (
        <nav className={chips} aria-label="Suggested questions">
          {view.followUps.map((question) => (
            <button
              key={question}
              type="button"
              className={chip}
              onClick={() => chat.send({ type: 'ask', content: question })}
            >
              {question}
            </button>
          ))}
        </nav>
      )}
      <form
        className={composer}
        onSubmit={(event) => {
          event.preventDefault()
          chat.send({ type: 'send' })
        }}
      >
        <textarea
          className={textarea({ size: 'md' })}
          aria-label="Your question"
          rows={2}
          placeholder="Do we encrypt backups, and where does it say so?"
          value={view.draft}
          disabled={view.exhausted}
          onChange={(event) => chat.send({ type: 'draft.change', value: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault()
              chat.send({ type: 'send' })
            }
          }}
        />
        {view.streaming ? (
          <Button type="button" variant="outline" onClick={() => chat.send({ type: 'stop' })}>
            <Square size={16} aria-hidden />
            Stop
          </Button>
        ) : (
          <Button type="submit" disabled={!view.draft.trim() || view.exhausted || view.loading}>
            <Send size={16} aria-hidden />
            Ask
          </Button>
        )}
      </form>
      {quota && !quota.language_model && (
        <p className={composerNote}>{CHAT_TEXTS.extractiveNote}</p>
      )}
    </section>
  )
}
