import { Field as ArkField } from '@ark-ui/react/field'
import { Portal } from '@ark-ui/react/portal'
import { useActorRef, useSelector } from '@xstate/react'
import {
  BookOpen,
  Database,
  FileText,
  MoreHorizontal,
  Pencil,
  Plus,
  Search,
  Trash2,
  Upload,
} from 'lucide-react'
import { useEffect, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { input, textarea } from 'styled-system/recipes'
import {
  COMMON_DROPDOWN_VALUES,
  type DataItem,
  FILE_KIND_LABELS,
  type QaItem,
  type RepositoryFile,
  type SearchResult,
} from '../../../contract/knowledge.ts'
import type { ItemField } from '../../../machines/item-editor/index.ts'
import type { ItemListKind } from '../../../machines/item-list/index.ts'
import { downloadFile } from '../../api/knowledge-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { Button } from '../../components/ui/button.tsx'
import * as Dialog from '../../components/ui/dialog.tsx'
import * as Field from '../../components/ui/field.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { EmptyState } from '../empty-state.tsx'
import { PageHeader } from '../page-header.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'
import { formatExact, formatRelative } from '../shared/format.ts'
import { createKnowledgeLogic, type KnowledgeLogic } from './knowledge-actors.ts'
import { LibraryHealthPanel } from './library-health.tsx'
import { Snippet } from './snippet.tsx'

const TABS: { kind: ItemListKind; label: string }[] = [
  { kind: 'qa', label: 'Q&A' },
  { kind: 'data', label: 'Data' },
  { kind: 'files', label: 'Files' },
]

const searchWrap = css({ position: 'relative', mb: '6' })
const searchIcon = css({
  position: 'absolute',
  left: '3',
  top: '50%',
  transform: 'translateY(-50%)',
  color: 'fg.muted',
  pointerEvents: 'none',
})
const searchInput = css({ pl: '10 !important', w: 'full' })
const results = css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '3' })
const resultCard = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
  '& mark': { bg: 'yellow.a5', color: 'inherit', borderRadius: 'l1', px: '0.5' },
})
const resultMeta = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  alignItems: 'center',
  mb: '1',
  color: 'fg.muted',
  textStyle: 'xs',
})
const linkButton = css({
  color: 'colorPalette.text',
  fontWeight: 'medium',
  cursor: 'pointer',
  textDecoration: 'underline',
  textUnderlineOffset: '2px',
  textAlign: 'left',
})
const tabList = css({
  display: 'flex',
  gap: '1',
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
  mb: '4',
  overflowX: 'auto',
})
const tab = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  px: '3',
  py: '2',
  textStyle: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  '&[aria-selected=true]': { color: 'fg.default', borderColor: 'colorPalette.default' },
})
const toolbar = css({ display: 'flex', flexWrap: 'wrap', gap: '2', mb: '3' })
const filterInput = css({ flex: '1 1 14rem', minW: '0' })
const list = css({ display: 'flex', flexDirection: 'column', gap: '2' })
const row = css({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: '1 3',
  p: '4',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
})
const rowTitle = css({ fontWeight: 'semibold', textStyle: 'sm' })
const rowText = css({ textStyle: 'sm', color: 'fg.muted', lineClamp: '3', whiteSpace: 'pre-line' })
const meta = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '1.5',
  alignItems: 'center',
  mt: '1.5',
  textStyle: 'xs',
  color: 'fg.muted',
})
const chip = css({ px: '2', py: '0.5', borderRadius: 'full', bg: 'gray.a3', textStyle: 'xs' })
const valueBadge = css({
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
  textStyle: 'xs',
  fontWeight: 'semibold',
})
const pager = css({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  mt: '3',
  textStyle: 'sm',
  color: 'fg.muted',
  gap: '2',
})
const dialogContent = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
  p: { base: '4', sm: '6' },
  w: { base: 'calc(100vw - 2rem)', sm: 'xl' },
  maxH: 'calc(100dvh - 2rem)',
  overflowY: 'auto',
})
const dialogActions = css({
  display: 'flex',
  justifyContent: 'flex-end',
  gap: '3',
  flexWrap: 'wrap',
})
const alert = css({
  p: '3',
  borderRadius: 'l2',
  bg: 'red.a2',
  color: 'fg.error',
  textStyle: 'sm',
  borderWidth: '1px',
  borderColor: 'red.a6',
})
const grid2 = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
  gap: '4',
})
const previewTable = css({
  w: 'full',
  borderCollapse: 'collapse',
  textStyle: 'xs',
  '& th, & td': {
    borderWidth: '1px',
    borderColor: 'border.subtle',
    px: '2',
    py: '1',
    textAlign: 'left',
    verticalAlign: 'top',
    maxW: '14rem',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& [data-role=question]': { bg: 'colorPalette.a3' },
  '& [data-role=answer]': { bg: 'green.a3' },
})

const defaultLogic = createKnowledgeLogic()

function locationText(result: SearchResult) {
  const location = result.source.location
  if (!location) return null
  if (location.page) return `page ${location.page}`
  if (location.sheet && location.row) return `${location.sheet}, row ${location.row}`
  return location.heading ?? null
}

export default function KnowledgeBasePage({ logic = defaultLogic }: { logic?: KnowledgeLogic }) {
  const [kind, setKind] = useState<ItemListKind>('qa')
  const editor = useActorRef(logic.editor)
  const importer = useActorRef(logic.importer)
  const search = useActorRef(logic.search)
  const toaster = ToasterContext.useActorRef()
  const [version, setVersion] = useState(0)

  useEffect(() => {
    const subs = [
      editor.on('saved', () => {
        setVersion((n) => n + 1)
        toaster.send({ type: 'toast.show', toast: { type: 'success', title: 'Saved' } })
      }),
      editor.on('deleted', () => {
        setVersion((n) => n + 1)
        toaster.send({ type: 'toast.show', toast: { type: 'success', title: 'Deleted' } })
      }),
      importer.on('imported', () => setVersion((n) => n + 1)),
    ]
    return () => {
      for (const sub of subs) sub.unsubscribe()
    }
  }, [editor, importer, toaster])

  return (
    <>
      <PageHeader
        title="Knowledge Base"
        description="Approved answers, facts about your company and the documents Quire reads. Everything here is evidence for the answers it drafts."
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            <Button variant="outline" onClick={() => importer.send({ type: 'open' })}>
              <Upload /> Import Q&A
            </Button>
            <Button
              onClick={() => editor.send({ type: 'create', mode: kind === 'data' ? 'data' : 'qa' })}
            >
              <Plus /> {kind === 'data' ? 'Add data item' : 'Add Q&A'}
            </Button>
          </div>
        }
      />
      <SearchPanel
        actor={search}
        onOpenItem={(result) => {
          if (result.kind === 'qa') setKind('qa')
          if (result.kind === 'data') setKind('data')
        }}
      />
      <div className={tabList} role="tablist" aria-label="Knowledge base sections">
        {TABS.map((entry) => (
          <button
            key={entry.kind}
            type="button"
            role="tab"
            className={tab}
            aria-selected={kind === entry.kind}
            onClick={() => setKind(entry.kind)}
          >
            {entry.kind === 'qa' ? (
              <BookOpen size={16} />
            ) : entry.kind === 'data' ? (
              <Database size={16} />
            ) : (
              <FileText size={16} />
            )}
            {entry.label}
          </button>
        ))}
      </div>
      {kind === 'qa' && (
        <LibraryHealthPanel
          version={version}
          onDelete={(id) => editor.send({ type: 'delete.request', mode: 'qa', id })}
        />
      )}
      <div role="tabpanel">
        <ItemList key={`${kind}-${version}`} kind={kind} logic={logic} editor={editor} />
      </div>
      <ItemEditorDialog actor={editor} />
      <ImportDialog actor={importer} />
    </>
  )
}

function SearchPanel({
  actor,
  onOpenItem,
}: {
  actor: ReturnType<typeof useActorRef<KnowledgeLogic['search']>>
  onOpenItem: (r: SearchResult) => void
}) {
  const q = useSelector(actor, (s) => s.context.q)
  const found = useSelector(actor, (s) => s.context.results)
  const error = useSelector(actor, (s) => s.context.error)
  const searching = useSelector(actor, (s) => s.hasTag('loading'))
  const shown = useSelector(actor, (s) => s.matches('shown'))
  const toaster = ToasterContext.useActorRef()
  return (
    <section className={searchWrap} aria-label="Search the knowledge base">
      <div className={css({ position: 'relative' })}>
        <Search size={18} className={searchIcon} aria-hidden />
        <input
          type="search"
          className={cx(input({ size: 'lg' }), searchInput)}
          placeholder="Search answers, data and documents"
          aria-label="Search the knowledge base"
          onChange={(event) => actor.send({ type: 'query.change', q: event.target.value })}
        />
      </div>
      {searching && (
        <div className={css({ mt: '3' })}>
          <Spinner size="sm" />
        </div>
      )}
      {error && <p className={cx(alert, css({ mt: '3' }))}>{error}</p>}
      {shown && !error && found.length === 0 && (
        <p className={css({ mt: '3', textStyle: 'sm', color: 'fg.muted' })}>
          Nothing found for “{q}”.
        </p>
      )}
      {found.length > 0 && (
        <ol className={results} aria-label="Search results">
          {found.map((result) => (
            <li key={result.id} className={resultCard} data-testid="search-result">
              <div className={resultMeta}>
                {result.kind === 'passage' && result.file_id !== null ? (
                  <button
                    type="button"
                    className={linkButton}
                    onClick={() =>
                      downloadFile(result.file_id as number, result.source.name).catch((e: Error) =>
                        toaster.send({
                          type: 'toast.show',
                          toast: { type: 'error', title: e.message },
                        }),
                      )
                    }
                  >
                    {result.source.name}
                  </button>
                ) : (
                  <button type="button" className={linkButton} onClick={() => onOpenItem(result)}>
                    {result.kind === 'qa' ? 'Q&A' : 'Data'}: {result.source.name}
                  </button>
                )}
                {result.source.kind && <span>{FILE_KIND_LABELS[result.source.kind]}</span>}
                {locationText(result) && <span>{locationText(result)}</span>}
                <span title="Relevance">{Math.round(result.score * 100)}%</span>
              </div>
              <div>
                <Snippet html={result.snippet} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function ItemList(props: {
  kind: ItemListKind
  logic: KnowledgeLogic
  editor: ReturnType<typeof useActorRef<KnowledgeLogic['editor']>>
}) {
  const actor = useActorRef(props.logic.list, { input: { kind: props.kind } })
  const items = useSelector(actor, (s) => s.context.results)
  const count = useSelector(actor, (s) => s.context.count)
  const query = useSelector(actor, (s) => s.context.query)
  const loading = useSelector(
    actor,
    (s) => s.hasTag('loading') && s.context.count === 0 && !s.context.results.length,
  )
  const error = useSelector(actor, (s) => (s.matches('failed') ? s.context.error : null))
  const pages = Math.max(1, Math.ceil(count / query.page_size))
  const toaster = ToasterContext.useActorRef()
  const { editor } = props
  const noun = props.kind === 'qa' ? 'Q&A items' : props.kind === 'data' ? 'data items' : 'files'
  return (
    <>
      <div className={toolbar}>
        <input
          type="search"
          className={cx(input({ size: 'md' }), filterInput)}
          placeholder={`Filter ${noun}`}
          aria-label={`Filter ${noun}`}
          value={query.q}
          onChange={(event) => actor.send({ type: 'search.change', q: event.target.value })}
        />
      </div>
      {error ? (
        <div className={alert} role="alert">
          {error}{' '}
          <Button size="xs" variant="outline" onClick={() => actor.send({ type: 'refresh' })}>
            Try again
          </Button>
        </div>
      ) : loading ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '12' })}>
          <Spinner />
        </div>
      ) : items.length === 0 ? (
        <EmptyState
          icon={props.kind === 'files' ? FileText : props.kind === 'data' ? Database : BookOpen}
          title={query.q ? 'Nothing matches' : `No ${noun} yet`}
        >
          {query.q
            ? 'Try other words.'
            : props.kind === 'qa'
              ? 'Add answers you have approved before, or import a completed questionnaire (CSV or Excel) to turn its rows into reusable answers.'
              : props.kind === 'data'
                ? 'Add facts Quire should know: your legal name, data-centre regions, retention periods, certifications.'
                : 'Files appear here once the repository has read them. Upload documents on the Repository page.'}
        </EmptyState>
      ) : (
        <ul className={list}>
          {props.kind === 'files'
            ? (items as RepositoryFile[]).map((file) => (
                <li key={file.id} className={row}>
                  <div>
                    <div className={rowTitle}>{file.name}</div>
                    <div className={meta}>
                      <span>{FILE_KIND_LABELS[file.kind]}</span>
                      <span>{file.passages} passages</span>
                      {file.tags.map((tag) => (
                        <span key={tag} className={chip}>
                          {tag}
                        </span>
                      ))}
                    </div>
                  </div>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() =>
                      downloadFile(file.id, file.name).catch((e: Error) =>
                        toaster.send({
                          type: 'toast.show',
                          toast: { type: 'error', title: e.message },
                        }),
                      )
                    }
                  >
                    Download
                  </Button>
                </li>
              ))
            : (items as (QaItem | DataItem)[]).map((item) => {
                const isQa = 'question' in item
                return (
                  <li key={item.id} className={row} data-testid="kb-item">
                    <div className={css({ minW: '0' })}>
                      <div className={rowTitle}>{isQa ? item.question : item.title}</div>
                      <div className={rowText}>{isQa ? item.answer : item.value}</div>
                      <div className={meta}>
                        {isQa && item.dropdown_value && (
                          <span className={valueBadge}>{item.dropdown_value}</span>
                        )}
                        {item.tags.map((tag) => (
                          <span key={tag} className={chip}>
                            {tag}
                          </span>
                        ))}
                        {item.source && <span>{item.source}</span>}
                        <span title={formatExact(item.updated_at)}>
                          updated {formatRelative(item.updated_at)}
                        </span>
                      </div>
                    </div>
                    <Menu.Root positioning={{ placement: 'bottom-end' }}>
                      <Menu.Trigger asChild>
                        <IconButton
                          variant="ghost"
                          size="sm"
                          aria-label={`Actions for ${isQa ? item.question : item.title}`}
                        >
                          <MoreHorizontal />
                        </IconButton>
                      </Menu.Trigger>
                      <Portal>
                        <Menu.Positioner>
                          <Menu.Content>
                            <Menu.Item
                              value="edit"
                              onClick={() =>
                                isQa
                                  ? editor.send({ type: 'edit', mode: 'qa', item })
                                  : editor.send({
                                      type: 'edit',
                                      mode: 'data',
                                      item: item as DataItem,
                                    })
                              }
                            >
                              <Pencil /> Edit
                            </Menu.Item>
                            <Menu.Item
                              value="delete"
                              onClick={() =>
                                editor.send({
                                  type: 'delete.request',
                                  mode: isQa ? 'qa' : 'data',
                                  id: item.id,
                                })
                              }
                            >
                              <Trash2 /> Delete
                            </Menu.Item>
                          </Menu.Content>
                        </Menu.Positioner>
                      </Portal>
                    </Menu.Root>
                  </li>
                )
              })}
        </ul>
      )}
      <div className={pager}>
        <span>
          {count} {noun}
        </span>
        {pages > 1 && (
          <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <Button
              size="sm"
              variant="outline"
              disabled={query.page <= 1}
              onClick={() => actor.send({ type: 'page.change', page: query.page - 1 })}
            >
              Previous
            </Button>
            <span>
              {query.page} / {pages}
            </span>
            <Button
              size="sm"
              variant="outline"
              disabled={query.page >= pages}
              onClick={() => actor.send({ type: 'page.change', page: query.page + 1 })}
            >
              Next
            </Button>
          </div>
        )}
      </div>
    </>
  )
}

function ItemEditorDialog({
  actor,
}: {
  actor: ReturnType<typeof useActorRef<KnowledgeLogic['editor']>>
}) {
  const editing = useSelector(actor, (s) => s.matches('editing') || s.matches('saving'))
  const confirming = useSelector(
    actor,
    (s) => s.matches('confirmingDelete') || s.matches('deleting'),
  )
  const deleting = useSelector(actor, (s) => s.matches('deleting'))
  const saving = useSelector(actor, (s) => s.matches('saving'))
  const { mode, id, values, errors, failure } = useSelector(actor, (s) => s.context)
  const change = (field: ItemField) => (event: { target: { value: string } }) =>
    actor.send({ type: 'change', field, value: event.target.value })
  const fieldOf = (
    field: ItemField,
    label: string,
    options: { multiline?: boolean; placeholder?: string; required?: boolean } = {},
  ) => (
    <Field.Root invalid={Boolean(errors[field])} required={options.required}>
      <Field.Label>
        {label}
        {options.required && <Field.RequiredIndicator />}
      </Field.Label>
      {options.multiline ? (
        <ArkField.Textarea
          className={textarea({ size: 'md' })}
          rows={5}
          value={values[field]}
          onChange={change(field)}
          placeholder={options.placeholder}
        />
      ) : (
        <Field.Input
          className={input({ size: 'md' })}
          value={values[field]}
          onChange={change(field)}
          placeholder={options.placeholder}
          list={field === 'dropdown_value' ? 'dropdown-values' : undefined}
        />
      )}
      {errors[field] && <Field.ErrorText>{errors[field]}</Field.ErrorText>}
    </Field.Root>
  )
  return (
    <>
      <Dialog.Root
        open={editing}
        onOpenChange={(details) => !details.open && actor.send({ type: 'close' })}
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content className={dialogContent}>
              <Dialog.Title>
                {id === null ? 'Add' : 'Edit'} {mode === 'qa' ? 'Q&A item' : 'data item'}
              </Dialog.Title>
              <form
                className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
                onSubmit={(event) => {
                  event.preventDefault()
                  actor.send({ type: 'submit' })
                }}
                noValidate
              >
                {mode === 'qa' ? (
                  <>
                    {fieldOf('question', 'Question', {
                      multiline: false,
                      required: true,
                      placeholder: 'Do you encrypt customer data at rest?',
                    })}
                    {fieldOf('answer', 'Answer', { multiline: true, required: true })}
                    <datalist id="dropdown-values">
                      {COMMON_DROPDOWN_VALUES.map((value) => (
                        <option key={value} value={value} />
                      ))}
                    </datalist>
                    <div className={grid2}>
                      {fieldOf('dropdown_value', 'Dropdown value', {
                        placeholder: 'Yes, No, N/A…',
                      })}
                      {fieldOf('tags', 'Tags', { placeholder: 'encryption, SOC 2' })}
                    </div>
                  </>
                ) : (
                  <>
                    {fieldOf('title', 'Title', {
                      required: true,
                      placeholder: 'Data-centre regions',
                    })}
                    {fieldOf('value', 'Value', {
                      multiline: true,
                      required: true,
                      placeholder: 'Frankfurt (eu-central-1) and Dublin (eu-west-1)',
                    })}
                    {fieldOf('tags', 'Tags', { placeholder: 'hosting' })}
                  </>
                )}
                {fieldOf('source', 'Source', { placeholder: 'Where this comes from (optional)' })}
                {failure && <p className={alert}>{failure}</p>}
                <div className={dialogActions}>
                  <Button
                    type="button"
                    variant="outline"
                    onClick={() => actor.send({ type: 'close' })}
                  >
                    Cancel
                  </Button>
                  <Button type="submit" loading={saving}>
                    Save
                  </Button>
                </div>
              </form>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
      <ConfirmDialog
        open={confirming}
        title={mode === 'qa' ? 'Delete this Q&A item?' : 'Delete this data item?'}
        description="It will no longer be used as evidence for new answers."
        confirmLabel="Delete"
        busy={deleting}
        error={failure}
        onConfirm={() => actor.send({ type: 'delete.confirm' })}
        onCancel={() => actor.send({ type: 'delete.cancel' })}
      />
    </>
  )
}

function ImportDialog({
  actor,
}: {
  actor: ReturnType<typeof useActorRef<KnowledgeLogic['importer']>>
}) {
  const open = useSelector(actor, (s) => !s.matches('closed'))
  const state = useSelector(actor, (s) => s.value as string)
  const { preview, choice, result, error, file } = useSelector(actor, (s) => s.context)
  const sheet = preview?.sheets.find((s) => s.name === choice.sheet)
  const columnSelect = (
    key: 'question' | 'answer' | 'dropdown' | 'tags_column',
    label: string,
    optional: boolean,
  ) => (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <select
        className={cx(input({ size: 'md' }), css({ appearance: 'auto', cursor: 'pointer' }))}
        value={choice[key]}
        aria-label={label}
        onChange={(event) =>
          actor.send({ type: 'choice.change', change: { [key]: event.target.value } })
        }
      >
        <option value="">{optional ? 'None' : 'Choose a column'}</option>
        {sheet?.columns.map((column) => (
          <option key={column.key} value={column.key}>
            {column.key}
            {column.header ? ` · ${column.header.slice(0, 40)}` : ''}
          </option>
        ))}
      </select>
    </Field.Root>
  )
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && actor.send({ type: 'close' })}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content
            className={cx(dialogContent, css({ w: { base: 'calc(100vw - 2rem)', md: '3xl' } }))}
          >
            <Dialog.Title>Import Q&A from a questionnaire</Dialog.Title>
            <Dialog.Description>
              Turn a completed questionnaire (CSV or Excel) into reusable answers. Rows whose
              question is already in your library update it instead of adding a copy.
            </Dialog.Description>
            {(state === 'picking' || state === 'previewing') && (
              <Field.Root>
                <Field.Label>File</Field.Label>
                <input
                  type="file"
                  accept=".csv,.xlsx,.xlsm"
                  aria-label="Questionnaire file"
                  disabled={state === 'previewing'}
                  onChange={(event) => {
                    const picked = event.target.files?.[0]
                    if (picked) actor.send({ type: 'file.choose', file: picked })
                  }}
                />
                {state === 'previewing' && <Spinner size="sm" />}
              </Field.Root>
            )}
            {error && <p className={alert}>{error}</p>}
            {(state === 'mapping' || state === 'importing') && preview && (
              <>
                <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>{file?.name}</p>
                <div className={grid2}>
                  <Field.Root>
                    <Field.Label>Sheet</Field.Label>
                    <select
                      className={cx(input({ size: 'md' }), css({ appearance: 'auto' }))}
                      value={choice.sheet}
                      aria-label="Sheet"
                      onChange={(event) =>
                        actor.send({ type: 'sheet.change', sheet: event.target.value })
                      }
                    >
                      {preview.sheets.map((s) => (
                        <option key={s.name} value={s.name}>
                          {s.name} ({s.row_count} rows)
                        </option>
                      ))}
                    </select>
                  </Field.Root>
                  <Field.Root>
                    <Field.Label>Header row</Field.Label>
                    <Field.Input
                      className={input({ size: 'md' })}
                      type="number"
                      min={1}
                      value={choice.header_row}
                      onChange={(event) =>
                        actor.send({
                          type: 'choice.change',
                          change: { header_row: Math.max(1, Number(event.target.value) || 1) },
                        })
                      }
                    />
                  </Field.Root>
                  {columnSelect('question', 'Question column', false)}
                  {columnSelect('answer', 'Answer column', false)}
                  {columnSelect('dropdown', 'Dropdown value column', true)}
                  {columnSelect('tags_column', 'Tags column', true)}
                </div>
                {sheet && sheet.sample.length > 0 && (
                  <div className={css({ overflowX: 'auto', maxH: '16rem', overflowY: 'auto' })}>
                    <table className={previewTable} aria-label="Preview">
                      <thead>
                        <tr>
                          <th>Row</th>
                          {sheet.columns.map((column) => (
                            <th
                              key={column.key}
                              data-role={
                                column.key === choice.question
                                  ? 'question'
                                  : column.key === choice.answer
                                    ? 'answer'
                                    : undefined
                              }
                            >
                              {column.key} {column.header}
                            </th>
                          ))}
                        </tr>
                      </thead>
                      <tbody>
                        {sheet.sample.slice(0, 8).map((sample) => (
                          <tr key={sample.row}>
                            <td>{sample.row}</td>
                            {sheet.columns.map((column) => (
                              <td
                                key={column.key}
                                data-role={
                                  column.key === choice.question
                                    ? 'question'
                                    : column.key === choice.answer
                                      ? 'answer'
                                      : undefined
                                }
                              >
                                {sample.cells[column.key] ?? ''}
                              </td>
                            ))}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                <Field.Root>
                  <Field.Label>Tags for every imported item</Field.Label>
                  <Field.Input
                    className={input({ size: 'md' })}
                    value={choice.tags}
                    placeholder="HECVAT 2026"
                    onChange={(event) =>
                      actor.send({ type: 'choice.change', change: { tags: event.target.value } })
                    }
                  />
                </Field.Root>
              </>
            )}
            {state === 'done' && result && (
              <p className={css({ textStyle: 'md' })} role="status">
                Imported: {result.created} added, {result.updated} updated, {result.skipped} rows
                skipped.
              </p>
            )}
            <div className={dialogActions}>
              {state === 'mapping' || state === 'importing' ? (
                <>
                  <Button variant="outline" onClick={() => actor.send({ type: 'back' })}>
                    Choose another file
                  </Button>
                  <Button
                    onClick={() => actor.send({ type: 'submit' })}
                    loading={state === 'importing'}
                  >
                    Import
                  </Button>
                </>
              ) : state === 'done' ? (
                <>
                  <Button variant="outline" onClick={() => actor.send({ type: 'back' })}>
                    Import another
                  </Button>
                  <Button onClick={() => actor.send({ type: 'close' })}>Done</Button>
                </>
              ) : (
                <Button variant="outline" onClick={() => actor.send({ type: 'close' })}>
                  Cancel
                </Button>
              )}
            </div>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
