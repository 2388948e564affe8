import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react'
import { css } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import {
  TRUST_SECTIONS,
  type TrustItems,
  type TrustSection,
  type TrustSettings,
} from '../../../../contract/trust.ts'
import { fieldLabel } from '../../../components/styles.ts'
import { Button } from '../../../components/ui/button.tsx'
import { IconButton } from '../../../components/ui/icon-button.tsx'
import { Input } from '../../../components/ui/input.tsx'
import { SECTION_TITLES } from '../../trust/trust-page-view.tsx'

const rows = css({ display: 'grid', gap: '2' })
const row = css({
  display: 'grid',
  gap: '2',
  alignItems: 'start',
  p: '2',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
})
const threeColumns = css({ gridTemplateColumns: { base: '1fr', md: '2fr 1fr 1.4fr auto' } })
const sectionRow = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  py: '1',
  px: '2',
  borderRadius: 'l2',
  _hover: { bg: 'gray.a2' },
})
const check = css({ w: '4', h: '4', accentColor: 'colorPalette.default', flexShrink: 0 })
const legend = css({ textStyle: 'sm', fontWeight: 'medium', mb: '2' })
const nativeSelect = css({
  h: '9',
  px: '2',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'l2',
  bg: 'bg.default',
  textStyle: 'sm',
  minW: '0',
})

/** The sections of the page: which, and in what order (chosen first, in order). */
export function SectionPicker(props: {
  sections: TrustSection[]
  onChange: (sections: TrustSection[]) => void
}) {
  const chosen = props.sections
  const others = TRUST_SECTIONS.filter((kind) => !chosen.includes(kind))
  const move = (index: number, by: -1 | 1) => {
    const next = [...chosen]
    const [moved] = next.splice(index, 1)
    if (moved) next.splice(index + by, 0, moved)
    props.onChange(next)
  }
  return (
    <fieldset>
      <legend className={legend}>Sections, in the order shown</legend>
      <ul className={css({ listStyle: 'none', p: '0', m: '0' })}>
        {[...chosen, ...others].map((kind) => {
          const index = chosen.indexOf(kind)
          const on = index >= 0
          return (
            <li key={kind} className={sectionRow}>
              <label
                className={css({ display: 'flex', gap: '2', alignItems: 'center', flex: '1' })}
              >
                <input
                  type="checkbox"
                  className={check}
                  checked={on}
                  onChange={(event) =>
                    props.onChange(
                      event.target.checked
                        ? [...chosen, kind]
                        : chosen.filter((section) => section !== kind),
                    )
                  }
                />
                <span className={css({ textStyle: 'sm', color: on ? 'fg.default' : 'fg.muted' })}>
                  {SECTION_TITLES[kind]}
                </span>
              </label>
              {on && (
                <>
                  <IconButton
                    size="xs"
                    variant="ghost"
                    aria-label={`Move ${SECTION_TITLES[kind]} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp />
                  </IconButton>
                  <IconButton
                    size="xs"
                    variant="ghost"
                    aria-label={`Move ${SECTION_TITLES[kind]} down`}
                    disabled={index === chosen.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown />
                  </IconButton>
                </>
              )}
            </li>
          )
        })}
      </ul>
    </fieldset>
  )
}

type Certification = TrustSettings['certifications'][number]
type Subprocessor = TrustSettings['subprocessors'][number]
type Update = TrustSettings['updates'][number]

const replace = <T,>(list: T[], index: number, change: Partial<T>) =>
  list.map((entry, at) => (at === index ? { ...entry, ...change } : entry))
const without = <T,>(list: T[], index: number) => list.filter((_, at) => at !== index)

function AddButton(props: { label: string; onClick: () => void }) {
  return (
    <div>
      <Button size="sm" variant="outline" onClick={props.onClick}>
        <Plus /> {props.label}
      </Button>
    </div>
  )
}

/** Certifications and frameworks: name, date, and the report among the repository's files. */
export function CertificationsEditor(props: {
  list: Certification[]
  files: TrustItems['files']
  onChange: (list: Certification[]) => void
}) {
  const { list, onChange } = props
  return (
    <fieldset className={rows}>
      <legend className={legend}>Certifications and frameworks</legend>
      {list.map((cert, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
        <div key={index} className={`${row} ${threeColumns}`}>
          <Input
            aria-label="Certification"
            placeholder="SOC 2 Type II"
            value={cert.name}
            onChange={(event) => onChange(replace(list, index, { name: event.target.value }))}
          />
          <Input
            aria-label="Date"
            type="date"
            value={cert.date ?? ''}
            onChange={(event) =>
              onChange(replace(list, index, { date: event.target.value || null }))
            }
          />
          <select
            aria-label="Report"
            className={nativeSelect}
            value={cert.file_id ?? ''}
            onChange={(event) =>
              onChange(
                replace(list, index, {
                  file_id: event.target.value ? Number(event.target.value) : null,
                }),
              )
            }
          >
            <option value="">No report</option>
            {props.files
              .filter((file) => file.visibility !== 'private' || file.id === cert.file_id)
              .map((file) => (
                <option key={file.id} value={file.id}>
                  {file.name}
                  {file.visibility === 'nda' ? ' (under NDA)' : ''}
                </option>
              ))}
          </select>
          <IconButton
            size="sm"
            variant="ghost"
            aria-label={`Remove ${cert.name || 'this certification'}`}
            onClick={() => onChange(without(list, index))}
          >
            <Trash2 />
          </IconButton>
        </div>
      ))}
      <AddButton
        label="Add a certification"
        onClick={() => onChange([...list, { name: '', date: null, file_id: null }])}
      />
    </fieldset>
  )
}

/** Sub-processors: name, purpose, location. */
export function SubprocessorsEditor(props: {
  list: Subprocessor[]
  onChange: (list: Subprocessor[]) => void
}) {
  const { list, onChange } = props
  return (
    <fieldset className={rows}>
      <legend className={legend}>Sub-processors</legend>
      {list.map((sub, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
        <div key={index} className={`${row} ${threeColumns}`}>
          <Input
            aria-label="Sub-processor"
            placeholder="Amazon Web Services"
            value={sub.name}
            onChange={(event) => onChange(replace(list, index, { name: event.target.value }))}
          />
          <Input
            aria-label="Location"
            placeholder="EU (Frankfurt)"
            value={sub.location}
            onChange={(event) => onChange(replace(list, index, { location: event.target.value }))}
          />
          <Input
            aria-label="Purpose"
            placeholder="Hosting"
            value={sub.purpose}
            onChange={(event) => onChange(replace(list, index, { purpose: event.target.value }))}
          />
          <IconButton
            size="sm"
            variant="ghost"
            aria-label={`Remove ${sub.name || 'this sub-processor'}`}
            onClick={() => onChange(without(list, index))}
          >
            <Trash2 />
          </IconButton>
        </div>
      ))}
      <AddButton
        label="Add a sub-processor"
        onClick={() => onChange([...list, { name: '', purpose: '', location: '' }])}
      />
    </fieldset>
  )
}

/** Dated notices, newest first on the page as the admin orders them. */
export function UpdatesEditor(props: { list: Update[]; onChange: (list: Update[]) => void }) {
  const { list, onChange } = props
  const today = new Date().toISOString().slice(0, 10)
  return (
    <fieldset className={rows}>
      <legend className={legend}>Updates</legend>
      {list.map((update, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
        <div key={index} className={row}>
          <div className={css({ display: 'flex', gap: '2' })}>
            <Input
              aria-label="Date of the update"
              type="date"
              className={css({ maxW: '44' })}
              value={update.date}
              onChange={(event) => onChange(replace(list, index, { date: event.target.value }))}
            />
            <Input
              aria-label="Title of the update"
              placeholder="Annual penetration test completed"
              value={update.title}
              onChange={(event) => onChange(replace(list, index, { title: event.target.value }))}
            />
            <IconButton
              size="sm"
              variant="ghost"
              aria-label={`Remove ${update.title || 'this update'}`}
              onClick={() => onChange(without(list, index))}
            >
              <Trash2 />
            </IconButton>
          </div>
          <label className={fieldLabel}>
            <span className={css({ srOnly: true })}>Text of the update</span>
            <textarea
              className={textarea({ size: 'sm' })}
              rows={2}
              value={update.body}
              onChange={(event) => onChange(replace(list, index, { body: event.target.value }))}
            />
          </label>
        </div>
      ))}
      <AddButton
        label="Add an update"
        onClick={() => onChange([{ date: today, title: '', body: '' }, ...list])}
      />
    </fieldset>
  )
}
