import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import type { qaImportMachine } from '../../../machines/qa-import/index.ts'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { alert, dialogActions, dialogBox, grid2 } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'

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

/** Turns a completed questionnaire into Q&A items: file, sheet and columns, then the import. */
export function ImportDialog({ actor }: { actor: ActorRefFrom<typeof qaImportMachine> }) {
  const open = useSelector(actor, (s) => !s.matches('closed'))
  const state = useSelector(actor, (s) => s.value as string)
  const { preview, choice, result, error, file } = useSelector(actor, (s) => s.context)
  const sheet = preview?.sheets.find((s) => s.name === choice.sheet)
  /** Marks the question and answer columns in the preview. */
  const roleOf = (key: string) =>
    key === choice.question ? 'question' : key === choice.answer ? 'answer' : undefined
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
    <DialogFrame
      open={open}
      onClose={() => actor.send({ type: 'close' })}
      className={dialogBox({ size: 'xlWide' })}
      title="Import Q&A from a questionnaire"
      description="Turn a completed questionnaire (CSV or Excel) into reusable answers. Rows whose question is already in your library update it instead of adding a copy."
    >
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
          Imported: {result.created} added, {result.updated} updated, {result.skipped} rows skipped.
        </p>
      )}
      <div className={dialogActions}>
        {state === 'mapping' || state === 'importing' ? (
          <>
            <Button variant="outline" onClick={() => actor.send({ type: 'back' })}>
              Choose another file
            </Button>
            <Button onClick={() => actor.send({ type: 'submit' })} loading={state === 'importing'}>
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
    </DialogFrame>
  )
}
