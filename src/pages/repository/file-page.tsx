import { getRouteApi, Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import { ArrowLeft, BookOpen, ClipboardList, Download, FileSearch } from 'lucide-react'
import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import { flex, stack } from 'styled-system/patterns'
import { ANSWER_STATUS_LABELS } from '../../../contract/answers.ts'
import type { FilePassage } from '../../../contract/file-page.ts'
import { FILE_KIND_LABELS, type RepositoryFile } from '../../../contract/knowledge.ts'
import { can } from '../../../contract/roles.ts'
import { filePageView } from '../../../machines/file-page/index.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import { createFilePageLogic, type FilePageLogic } from '../../api/file-page-actors.ts'
import { downloadFile, downloadFileVersion } from '../../api/knowledge-actors.ts'
import { SessionContext } from '../../app/session.tsx'
import { ToasterContext } from '../../app/toaster.tsx'
import { useView, type ViewOf } from '../../app/use-view.ts'
import { Pager } from '../../components/files/pager.tsx'
import { StatusBadge } from '../../components/files/status-badge.tsx'
import { Marked } from '../../components/marked-quote.tsx'
import { ProductPicker } from '../../components/product-select.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert } from '../../components/row-actions.tsx'
import { card, chip, errorLine, metaLine, nameLink, pill } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { formatBytes } from '../../lib/format.ts'
import { PageHeader } from '../page-header.tsx'

const route = getRouteApi('/_app/repository/$id')

// the ghost button's text lines up with the heading under it
const back = css({ mb: '4', ms: '-2.5' })
const columns = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', lg: 'minmax(0, 2fr) minmax(16rem, 1fr)' },
  gap: '6',
  alignItems: 'start',
})
const section = css({ mb: '6' })
const heading = css({ textStyle: 'lg', fontWeight: 'semibold', mb: '2' })
const hint = css({ textStyle: 'sm', color: 'fg.muted', mb: '3' })
const list = stack({ gap: '2' })
const passageCard = cx(
  card,
  css({
    textStyle: 'sm',
    // the cited page's passages stand out (a source opened at its page)
    '&[data-cited]': { borderColor: 'colorPalette.a7', bg: 'colorPalette.a2' },
  }),
)
const passageText = css({
  whiteSpace: 'pre-line',
  overflowWrap: 'anywhere',
  lineClamp: '8',
  // a passage holding the cited words shows whole, so that the mark is never clipped
  '&:has(mark)': { lineClamp: 'unset' },
})
const rowQuestion = css({ fontWeight: 'medium', overflowWrap: 'anywhere' })
const rowAnswer = css({ color: 'fg.muted', overflowWrap: 'anywhere', lineClamp: '4' })
const steps = css({ display: 'flex', flexDirection: 'column', gap: '2', textStyle: 'sm' })
const step = flex({ gap: '2', align: 'center', wrap: 'wrap' })
const currentPill = css({ bg: 'colorPalette.a3', color: 'colorPalette.text' })

/** Where a passage was in its file, in words: its page, its sheet and row, or its heading. */
export function placeOf(passage: FilePassage) {
  const at = passage.location
  if (!at) return null
  if (at.page) return `Page ${at.page}`
  if (at.row) return [at.sheet, `row ${at.row}`].filter(Boolean).join(', ')
  return at.heading ?? at.sheet ?? null
}

/** What a file is, in one line: its type, size, pages, when and by whom it was added. */
function Facts({ file }: { file: RepositoryFile }) {
  return (
    <p className={cx(metaLine, css({ textStyle: 'sm', mb: '6' }))} data-testid="file-facts">
      <span>{FILE_KIND_LABELS[file.kind]}</span>
      {file.size > 0 && <span>{formatBytes(file.size)}</span>}
      {file.pages !== null && <span>{file.pages} pages</span>}
      <span>{file.passages} passages</span>
      {file.version > 1 && <span className={chip}>v{file.version}</span>}
      <RelativeTime
        iso={file.created_at}
        prefix="added "
        suffix={file.added_by ? ` by ${file.added_by.name}` : ''}
      />
      {file.source_url && (
        <span className={css({ overflowWrap: 'anywhere' })}>{file.source_url}</span>
      )}
    </p>
  )
}

/**
 * A file's page (issue 30): what it is, what was read from it (passages with their pages, or a
 * completed questionnaire's rows), every status it has been in, its versions, and the answers
 * and library items that cite it, each opening where it is.
 */
export function FilePage(props: {
  id: number
  citedPage?: number
  citedQuote?: string
  logic?: FilePageLogic
}) {
  const [logic] = useState(() => props.logic ?? createFilePageLogic())
  const page = useActorRef(logic.page, {
    input: { id: props.id, citedPage: props.citedPage, citedQuote: props.citedQuote },
  })
  const view = useView(page, filePageView)
  const toaster = ToasterContext.useActorRef()
  const failed = (error: Error) =>
    toaster.send({ type: 'toast.show', toast: { type: 'error', title: error.message } })
  const { file } = view
  const role = SessionContext.useSelector(selectProfile)?.user.role ?? null

  return (
    <>
      <Button variant="ghost" size="sm" asChild className={back}>
        <Link to="/repository">
          <ArrowLeft /> Repository
        </Link>
      </Button>
      {view.error && <RetryAlert error={view.error} onRetry={() => page.send({ type: 'retry' })} />}
      {view.loading && (
        <div className={flex({ gap: '2', color: 'fg.muted' })}>
          <Spinner size="sm" /> Loading the file...
        </div>
      )}
      {file && (
        <>
          <PageHeader
            title={file.name}
            actions={
              <Button
                variant="outline"
                onClick={() => downloadFile(file.id, file.name).catch(failed)}
              >
                <Download /> Download
              </Button>
            }
          />
          <Facts file={file} />
          <ProductPicker
            logic={logic.products}
            target={{ kind: 'file', id: file.id }}
            current={file.product_id}
            canChange={role === null || can(role, 'repository.write')}
            lead="Speaks for"
            className={css({ mt: '-3', mb: '6' })}
          />
          <div className={columns}>
            <div>
              <section className={section} aria-labelledby="read-heading">
                <h3 id="read-heading" className={heading}>
                  What Quire read
                </h3>
                {view.readError ? (
                  <RetryAlert error={view.readError} onRetry={() => page.send({ type: 'retry' })} />
                ) : view.passages.length === 0 ? (
                  <p className={hint}>
                    {view.reading
                      ? 'Loading…'
                      : file.status === 'ready'
                        ? 'Nothing readable was found in this file.'
                        : 'Nothing yet: what Quire reads appears here once the file is ready.'}
                  </p>
                ) : (
                  <ol className={list} aria-label="Passages" aria-busy={view.reading || undefined}>
                    {view.passages.map((passage) => (
                      <li
                        key={passage.id}
                        className={passageCard}
                        data-testid="file-passage"
                        data-cited={
                          view.citedPage !== null && passage.location?.page === view.citedPage
                            ? ''
                            : undefined
                        }
                      >
                        {placeOf(passage) && (
                          <p className={cx(metaLine, css({ mb: '1' }))}>{placeOf(passage)}</p>
                        )}
                        {passage.question ? (
                          <>
                            <p className={rowQuestion}>{passage.question}</p>
                            <p className={rowAnswer}>{passage.answer}</p>
                          </>
                        ) : (
                          <p className={passageText}>
                            <Marked text={passage.text} quote={view.citedQuote} />
                          </p>
                        )}
                      </li>
                    ))}
                  </ol>
                )}
                <Pager
                  total={`${view.count} ${view.count === 1 ? 'passage' : 'passages'}`}
                  page={view.page}
                  pages={view.pages}
                  position={`Page ${view.page} of ${view.pages}`}
                  onPage={(to) => page.send({ type: 'page.change', page: to })}
                />
              </section>
              <Citing view={view} />
            </div>
            <div>
              <section className={section} aria-labelledby="status-heading">
                <h3 id="status-heading" className={heading}>
                  Status
                </h3>
                <div className={css({ mb: '3' })}>
                  <StatusBadge status={file.status} progress={file.progress} />
                  {file.error && <p className={errorLine}>{file.error}</p>}
                </div>
                <ol className={steps} aria-label="Status history" data-testid="status-history">
                  {view.history.map((entry) => (
                    <li key={`${entry.at}-${entry.status}`} className={step}>
                      <StatusBadge status={entry.status} progress={0} />
                      <span className={metaLine}>
                        v{entry.version} · <RelativeTime iso={entry.at} />
                      </span>
                      {entry.error && <span className={errorLine}>{entry.error}</span>}
                    </li>
                  ))}
                </ol>
              </section>
              <section className={section} aria-labelledby="versions-heading">
                <h3 id="versions-heading" className={heading}>
                  Versions
                </h3>
                <ol className={steps} aria-label="Versions">
                  {view.versions.map((version) => (
                    <li key={version.version} className={step} data-testid="file-page-version">
                      <strong>Version {version.version}</strong>
                      {version.current && <span className={cx(pill, currentPill)}>Current</span>}
                      <span className={metaLine}>
                        <RelativeTime iso={version.created_at} /> ·{' '}
                        {formatBytes(version.size_bytes)}
                      </span>
                      <Button
                        size="xs"
                        variant="ghost"
                        aria-label={`Download version ${version.version}`}
                        onClick={() =>
                          downloadFileVersion(file.id, version.version, version.name).catch(failed)
                        }
                      >
                        <Download />
                      </Button>
                    </li>
                  ))}
                </ol>
              </section>
            </div>
          </div>
        </>
      )}
    </>
  )
}

/** The answers of questionnaires and the library items that cite the file, each a link. */
function Citing({ view }: { view: ViewOf<typeof filePageView> }) {
  const more = view.answersCount - view.answers.length
  return (
    <section className={section} aria-labelledby="citing-heading">
      <h3 id="citing-heading" className={heading}>
        Answers that cite it
      </h3>
      {view.answers.length === 0 && view.items.length === 0 ? (
        <p className={hint}>No answer cites this file yet.</p>
      ) : (
        <ul className={list}>
          {view.answers.map((answer) => (
            <li key={answer.question_id} className={passageCard} data-testid="citing-answer">
              <p className={cx(metaLine, css({ mb: '1' }))}>
                <ClipboardList size={12} aria-hidden /> {answer.questionnaire_name} ·{' '}
                {ANSWER_STATUS_LABELS[answer.status]}
              </p>
              <Link
                to="/questionnaire/$id"
                params={{ id: answer.questionnaire_id }}
                search={{ question: answer.question_id }}
                className={nameLink}
              >
                {answer.question}
              </Link>
              <p className={rowAnswer}>{answer.answer}</p>
            </li>
          ))}
          {view.items.map((item) => (
            <li key={`item-${item.id}`} className={passageCard} data-testid="citing-item">
              <p className={cx(metaLine, css({ mb: '1' }))}>
                <BookOpen size={12} aria-hidden /> Knowledge base
              </p>
              <a href={`/knowledge-base?item=${item.id}`} className={nameLink}>
                {item.question}
              </a>
              <p className={rowAnswer}>{item.answer}</p>
            </li>
          ))}
        </ul>
      )}
      {more > 0 && (
        <p className={cx(hint, css({ mt: '2' }))}>
          <FileSearch size={12} aria-hidden /> and {more} more
        </p>
      )}
    </section>
  )
}

/** The route's page: another file's id starts the page afresh. */
export default function FileRoutePage() {
  const { id } = route.useParams()
  const { page, quote } = route.useSearch()
  return (
    <FilePage
      key={`${id}:${page ?? ''}:${quote ?? ''}`}
      id={id}
      citedPage={page}
      citedQuote={quote}
    />
  )
}
