import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { fillValue, type PortalAnswer, type PortalField } from '../../contract/portal.ts'
import { type portalPanelMachine, portalPanelView } from '../../machines/portal-panel/index.ts'

type PortalActor = ActorRefFrom<typeof portalPanelMachine>

/**
 * Fill this page (issue 42): what the portal panel's machine says, rendered; each button sends
 * it an event. Everything from the page or from Quire is shown as text, never as markup.
 */
export function PortalView({ actor }: { actor: PortalActor }) {
  const screen = useSelector(actor, portalPanelView.screen)
  const step = useSelector(actor, portalPanelView.step)
  const error = useSelector(actor, portalPanelView.error)
  const busy = useSelector(actor, portalPanelView.busy)
  const fields = useSelector(actor, (s) => s.context.fields)
  return (
    <section aria-labelledby="portal-title" className="section">
      <h1 id="portal-title">Fill this page</h1>
      {screen === 'checking' && <p className="muted">Checking your Quire session…</p>}
      {screen === 'signedOut' && (
        <>
          <p>Connect the extension to Quire to read and fill the questionnaire on this page.</p>
          {error && <p className="error">{error}</p>}
          <button type="button" disabled={busy} onClick={() => actor.send({ type: 'connect' })}>
            Connect to Quire
          </button>
        </>
      )}
      {screen === 'expired' && (
        <>
          <p className="error" role="alert">
            Your Quire session has ended. Connect again to go on; what you filled stays on the page.
          </p>
          <button type="button" disabled={busy} onClick={() => actor.send({ type: 'connect' })}>
            Connect again
          </button>
        </>
      )}
      {screen === 'idle' && (
        <>
          <p className="muted">
            Quire reads the question fields of the page you are on (only their words, kinds and
            options), drafts each from your approved answers and documents, and fills what you
            confirm. It never replaces what a field holds without asking.
          </p>
          <button type="button" onClick={() => actor.send({ type: 'read' })}>
            Read this page
          </button>
        </>
      )}
      {screen === 'working' && (
        <p role="status" aria-live="polite" className="progress">
          {step === 'reading'
            ? 'Reading the page…'
            : `Drafting ${fields.length} ${fields.length === 1 ? 'answer' : 'answers'} from Quire…`}
        </p>
      )}
      {screen === 'failed' && (
        <>
          <p className="error" role="alert">
            {error}
          </p>
          <button type="button" onClick={() => actor.send({ type: 'retry' })}>
            Try again
          </button>
        </>
      )}
      {screen === 'review' && <Review actor={actor} />}
    </section>
  )
}

const BAND_WORDS = { high: 'High', medium: 'Medium', low: 'Low' } as const

function bandOf(answer: PortalAnswer | undefined) {
  if (!answer) return { label: 'Not drafted', tone: 'none' }
  if (answer.status === 'approved') return { label: 'Approved', tone: 'high' }
  if (answer.status === 'edited') return { label: 'Edited in Quire', tone: 'medium' }
  if (answer.band) return { label: BAND_WORDS[answer.band], tone: answer.band }
  return { label: 'No answer', tone: 'none' }
}

function Review({ actor }: { actor: PortalActor }) {
  const context = useSelector(actor, (s) => s.context)
  const busy = useSelector(actor, portalPanelView.busy)
  const highCount = useSelector(actor, portalPanelView.highCount)
  const confirming = useSelector(actor, portalPanelView.confirming)
  const { questionnaire, fields, answers, outcomes, updated, notice, error, overwrite } = context
  const drafted = fields.filter((field) => {
    const answer = answers[field.key]
    return answer && fillValue(field, answer) !== null
  }).length
  return (
    <>
      {questionnaire && (
        <p className="muted">
          {fields.length} {fields.length === 1 ? 'question' : 'questions'} on this page, {drafted}{' '}
          drafted.{' '}
          {context.server && (
            <a
              href={`${context.server}/questionnaire/${questionnaire.id}`}
              target="_blank"
              rel="noreferrer"
            >
              Open “{questionnaire.name}” in Quire
            </a>
          )}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          disabled={busy || confirming || highCount === 0}
          onClick={() => actor.send({ type: 'fill.high' })}
        >
          Fill all High ({highCount})
        </button>
        <button
          type="button"
          className="secondary"
          disabled={busy || confirming}
          onClick={() => actor.send({ type: 'read' })}
        >
          Read this page again
        </button>
      </div>
      <p className="muted small">
        Read the page again after moving to its next step, or to take answers edited or approved in
        Quire since.
      </p>
      {(notice || error) && (
        <p className={error ? 'error' : 'notice'} role="status">
          {error ?? notice}
        </p>
      )}
      {confirming && overwrite && (
        <div className="confirm" role="alertdialog" aria-labelledby="overwrite-title">
          <h2 id="overwrite-title">This field already holds an answer</h2>
          <p className="question">{overwrite.question}</p>
          <p className="label">On the page now</p>
          <p className="held">{overwrite.current}</p>
          <p className="label">Quire’s answer</p>
          <p className="held">{overwrite.next}</p>
          <div className="actions">
            <button type="button" onClick={() => actor.send({ type: 'overwrite.confirm' })}>
              Replace it
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => actor.send({ type: 'overwrite.cancel' })}
            >
              Keep what is there
            </button>
          </div>
        </div>
      )}
      <ol className="fields">
        {fields.map((field) => (
          <FieldRow
            key={field.key}
            field={field}
            answer={answers[field.key]}
            outcome={outcomes[field.key]}
            changed={updated.includes(field.key)}
            disabled={busy || confirming}
            onFill={() => actor.send({ type: 'fill', key: field.key })}
          />
        ))}
      </ol>
    </>
  )
}

function FieldRow(props: {
  field: PortalField
  answer: PortalAnswer | undefined
  outcome: { ok: boolean; reason?: string; occupied?: boolean } | undefined
  changed: boolean
  disabled: boolean
  onFill: () => void
}) {
  const { field, answer, outcome, changed } = props
  const band = bandOf(answer)
  const value = answer ? fillValue(field, answer) : null
  const choice = field.kind === 'select' || field.kind === 'radio' || field.kind === 'checkbox'
  return (
    <li className="field" data-key={field.key} aria-label={field.question}>
      <p className="question">{field.question}</p>
      <p className="meta">
        <span className={`band band-${band.tone}`}>{band.label}</span>
        {answer?.confidence !== null && answer?.confidence !== undefined && (
          <span className="muted"> {Math.round(answer.confidence * 100)} %</span>
        )}
        {changed && <span className="badge">Changed in Quire</span>}
      </p>
      {value !== null ? (
        <p className="draft">{value}</p>
      ) : (
        <p className="muted">
          {answer && choice && (answer.text || answer.choice)
            ? `No option of this field matches the answer (“${answer.choice ?? answer.text}”): choose it on the page.`
            : (answer?.note ?? 'Quire has no answer for this question.')}
        </p>
      )}
      {choice && value !== null && answer?.text && answer.text !== value && (
        <p className="muted small">{answer.text}</p>
      )}
      {answer && answer.citations.length > 0 && (
        <p className="source">
          Sources: {answer.citations.map((citation) => citation.title).join('; ')}
        </p>
      )}
      {field.value.trim() !== '' && !outcome?.ok && (
        <p className="muted small">On the page now: {field.value}</p>
      )}
      <div className="row-actions">
        {outcome?.ok ? (
          <span className="filled" role="img" aria-label="Filled">
            ✓ Filled
          </span>
        ) : outcome?.occupied ? (
          <span className="muted small">Holds something already: left as it is.</span>
        ) : outcome?.reason ? (
          <span className="error small">{outcome.reason}</span>
        ) : null}
        {value !== null && (
          <button
            type="button"
            className="secondary"
            disabled={props.disabled}
            onClick={props.onFill}
          >
            {outcome?.ok ? 'Fill again' : outcome?.occupied ? 'Replace…' : 'Fill'}
          </button>
        )}
      </div>
    </li>
  )
}
