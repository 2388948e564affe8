import { css } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { type qaImportMachine, qaImportView } from '../../../machines/qa-import/index.ts'
import { useView } from '../../app/use-view.ts'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { alert, dialogActions, dialogBox, grid2 } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import * as FileUpload from '../../components/ui/file-upload.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { formatDay } from '../../lib/format.ts'

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

const dropzone = css({
  flexDirection: 'row',
  flexWrap: 'wrap',
  justifyContent: 'flex-start',
  p: '3',
})
const dropHint = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  textStyle: 'sm',
  color: 'fg.muted',
})

/** Turns a completed questionnaire into Q&A items: file, sheet and columns, then the import. */
export function ImportDialog({ actor }: { actor: ActorRefFrom<typeof qaImportMachine> }) {
  const view = useView(actor, qaImportView)
  const { open, step, preview, choice, result, error, file } = view
  const sheet = preview?.sheets.find((s) => s.name === choice.sheet)
  /** Marks the question and answer columns in the preview. */
  const roleOf = (key: string) =>
    key === choice.question ? 'question' : key === choice.answer ? 'answer' : undefined
  const columnSelect = (
    key: 'question' | 'answer' | 'dropdown' | 'tags_column',
    label: string,
    optional: boolean,
  ) => (
    <SimpleSelect
      label={label}
      inDialog
      size="md"
      placeholder="Choose a column"
      options={[
        ...(optional ? [{ value: '', label: 'None' }] : []),
        ...(sheet?.columns ?? []).map((column) => ({
          value: column.key,
          label: column.header ? `${column.key} · ${column.header.slice(0, 40)}` : column.key,
        })),
      ]}
      value={choice[key]}
      onChange={(value) => actor.send({ type: 'choice.change', change: { [key]: value } })}
    />
  )
  return (
    <DialogFrame
      open={open}
      onClose={() => actor.send({ type: 'close' })}
      className={dialogBox({ size: 'xlWide' })}
      title="Import Q&A from a questionnaire"
      description="Turn a completed questionnaire (CSV or Excel) into reusable answers. Rows whose question is already in your library update it instead of adding a copy."
    >
      {step === 'picking' && (
        <FileUpload.FilePicker
          accept=".csv,.xlsx,.xlsm"
          allowDrop
          disabled={view.previewing}
          testId="qa-import-picker"
          onFiles={([picked]) => {
            if (picked) actor.send({ type: 'file.choose', file: picked })
          }}
        >
          <FileUpload.Label>Questionnaire file</FileUpload.Label>
          <FileUpload.Dropzone
            className={dropzone}
            disableClick
            role="group"
            aria-label="Drop the questionnaire here"
          >
            <FileUpload.ChooseButton size="sm" />
            {view.previewing ? (
              <span className={dropHint}>
                <Spinner size="sm" /> Reading {file?.name}
              </span>
            ) : (
              <span className={dropHint}>or drop a CSV or Excel file here</span>
            )}
          </FileUpload.Dropzone>
        </FileUpload.FilePicker>
      )}
      {error && <p className={alert}>{error}</p>}
      {step === 'mapping' && preview && (
        <>
          <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>{file?.name}</p>
          <div className={grid2}>
            <SimpleSelect
              label="Sheet"
              inDialog
              size="md"
              options={preview.sheets.map((s) => ({
                value: s.name,
                label: `${s.name} (${s.row_count} rows)`,
              }))}
              value={choice.sheet}
              onChange={(value) => actor.send({ type: 'sheet.change', sheet: value })}
            />
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
                      <th key={column.key} data-role={roleOf(column.key)}>
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
                        <td key={column.key} data-role={roleOf(column.key)}>
                          {sample.cells[column.key] ?? ''}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {preview.stated_at && (
            <p className={css({ textStyle: 'sm' })}>
              Answered on {formatDay(preview.stated_at)}, as the file says: imported answers are
              dated from that day, and you own them.
            </p>
          )}
          {sheet && sheet.skipped.length > 0 && (
            <details className={css({ textStyle: 'sm' })}>
              <summary>
                {sheet.skipped.length} {sheet.skipped.length === 1 ? 'row' : 'rows'} left out with
                the suggested columns
              </summary>
              <ul className={css({ pl: '4', maxH: '10rem', overflowY: 'auto' })}>
                {sheet.skipped.map((skip) => (
                  <li key={skip.row}>
                    Row {skip.row}
                    {skip.text ? ` “${skip.text}”` : ''}: {skip.reason}
                  </li>
                ))}
              </ul>
            </details>
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
      {step === 'done' && result && (
        <p className={css({ textStyle: 'md' })} role="status">
          Imported: {result.created} added, {result.updated} updated, {result.skipped} rows skipped.
        </p>
      )}
      <div className={dialogActions}>
        {step === 'mapping' ? (
          <>
            <Button variant="outline" onClick={() => actor.send({ type: 'back' })}>
              Choose another file
            </Button>
            <Button onClick={() => actor.send({ type: 'submit' })} loading={view.importing}>
              Import
            </Button>
          </>
        ) : step === 'done' ? (
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
    </DialogFrame>
  )
}
