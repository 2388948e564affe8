import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { TrustVisibility } from '../../../../contract/trust.ts'
import {
  type trustContentMachine,
  trustContentView,
  type VisibilityChange,
} from '../../../../machines/trust-content/index.ts'
import { useView } from '../../../app/use-view.ts'
import { callout } from '../../../components/form-styles.ts'
import { RetryAlert } from '../../../components/row-actions.tsx'
import { dataTable, filterPill, filterPills, tableWrap } from '../../../components/styles.ts'

const LABELS: Record<TrustVisibility, string> = {
  private: 'Private',
  public: 'Public',
  nda: 'Under NDA',
}
const subheading = css({ textStyle: 'md', fontWeight: 'semibold', mb: '2' })
const help = css({ textStyle: 'sm', color: 'fg.muted', mb: '3' })
const name = css({ fontWeight: 'medium', overflowWrap: 'anywhere' })
const answer = css({ color: 'fg.muted', textStyle: 'xs', mt: '0.5', lineClamp: 2 })
const empty = css({ color: 'fg.muted', textStyle: 'sm' })
const choiceCell = css({ whiteSpace: 'nowrap', textAlign: 'right' })

function Choice(props: {
  label: string
  options: readonly TrustVisibility[]
  value: TrustVisibility
  busy: boolean
  onChange: (visibility: TrustVisibility) => void
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, not a form's fieldset
    <div
      className={`${filterPills} ${css({ justifyContent: 'flex-end', flexWrap: 'nowrap' })}`}
      role="group"
      aria-label={props.label}
    >
      {props.options.map((option) => (
        <button
          key={option}
          type="button"
          className={filterPill}
          aria-pressed={props.value === option}
          disabled={props.busy}
          onClick={() => props.value !== option && props.onChange(option)}
        >
          {LABELS[option]}
        </button>
      ))}
    </div>
  )
}

/**
 * Settings → Trust centre, what is public (admins and approvers): each repository file private,
 * public or under NDA, each approved Q&A item private or public; renders the content machine.
 */
export function ContentPanel(props: { actor: ActorRefFrom<typeof trustContentMachine> }) {
  const { actor } = props
  const view = useView(actor, trustContentView)
  const set = (change: VisibilityChange) => actor.send({ type: 'set', change })
  if (view.failed)
    return <RetryAlert error={view.error ?? ''} onRetry={() => actor.send({ type: 'retry' })} />
  if (view.loading && view.items.files.length + view.items.qa.length === 0)
    return <p className={empty}>Loading...</p>
  const busy = (kind: 'file' | 'qa', id: number) =>
    view.pending?.kind === kind && view.pending.id === id
  return (
    <div className={css({ display: 'grid', gap: '6' })}>
      {view.error && (
        <p className={callout({ tone: 'error' })} role="alert">
          {view.error}
        </p>
      )}
      <VisibilityTable
        title="Documents"
        help="Public documents download from the page; documents under NDA are sent to those you approve, marked with their email."
        empty="The repository has no files yet."
        column="File"
        rows={view.items.files.map((file) => ({
          id: file.id,
          name: file.name,
          detail: null,
          options: ['private', 'public', 'nda'] as const,
          value: file.visibility,
          busy: busy('file', file.id),
          onChange: (visibility: TrustVisibility) => set({ kind: 'file', id: file.id, visibility }),
        }))}
      />
      <VisibilityTable
        title="Security practices"
        help="Approved answers of the knowledge base shown on the page; the ask box answers from these and the public documents only."
        empty="The knowledge base has no approved answers yet."
        column="Question and answer"
        rows={view.items.qa.map((item) => ({
          id: item.id,
          name: item.question,
          detail: item.answer,
          options: ['private', 'public'] as const,
          value: item.visibility,
          busy: busy('qa', item.id),
          onChange: (visibility: TrustVisibility) => set({ kind: 'qa', id: item.id, visibility }),
        }))}
      />
    </div>
  )
}

/** One kind of what may be public: a row per file or item, with its choice at the end. */
function VisibilityTable(props: {
  title: string
  help: string
  empty: string
  column: string
  rows: {
    id: number
    name: string
    detail: string | null
    options: readonly TrustVisibility[]
    value: TrustVisibility
    busy: boolean
    onChange: (visibility: TrustVisibility) => void
  }[]
}) {
  return (
    <div>
      <h4 className={subheading}>{props.title}</h4>
      <p className={help}>{props.help}</p>
      {props.rows.length === 0 ? (
        <p className={empty}>{props.empty}</p>
      ) : (
        <div className={tableWrap}>
          <table className={dataTable}>
            <thead>
              <tr>
                <th>{props.column}</th>
                <th data-align="end">On the page</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    <div className={name}>{row.name}</div>
                    {row.detail && <div className={answer}>{row.detail}</div>}
                  </td>
                  <td className={choiceCell}>
                    <Choice
                      label={`Visibility of ${row.name}`}
                      options={row.options}
                      value={row.value}
                      busy={row.busy}
                      onChange={row.onChange}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}
