import { Upload } from 'lucide-react'
import type { ReactNode, Ref } from 'react'
import { css, cx } from 'styled-system/css'
import { flex, grid } from 'styled-system/patterns'
import { DEFAULT_MAX_UPLOAD_MB, FILE_ACCEPT } from '../../../contract/knowledge.ts'
import { card } from '../styles.ts'
import { ChooseButton, Dropzone, FilePicker } from '../ui/file-upload.tsx'

// the dashed border and the highlight while files are dragged over come from the recipe
const drop = flex({
  direction: { base: 'column', sm: 'row' },
  align: 'center',
  gap: '4',
  p: '5',
})
const root = css({ mb: '4' })
const dropText = css({
  flex: '1',
  textStyle: 'sm',
  color: 'fg.muted',
  textAlign: { base: 'center', sm: 'left' },
})
const dropTitle = css({ fontWeight: 'semibold', color: 'fg.default', textStyle: 'md' })
/** One upload in flight: its name and progress, and its actions beside them. */
export const uploadRow = cx(
  card,
  grid({ gridTemplateColumns: '1fr auto', gap: '1 3', alignItems: 'center' }),
)

/**
 * Where files are dropped or chosen, acting at once: the text given and a button that opens the
 * picker (`picker` lets another button open it too).
 */
export function DropZone(props: {
  label: string
  accept: string
  testId: string
  onFiles: (files: File[]) => void
  picker?: Ref<HTMLInputElement>
  icon?: ReactNode
  chooseVariant?: 'solid' | 'outline'
  /** Set beside the button: what the files dropped next are for (the product, issue 38). */
  beside?: ReactNode
  children: ReactNode
}) {
  return (
    <FilePicker
      className={root}
      accept={props.accept}
      multiple
      allowDrop
      testId={props.testId}
      inputRef={props.picker}
      onFiles={props.onFiles}
    >
      {/* the button in it opens the picker: the zone itself takes drops, not clicks */}
      <Dropzone className={drop} disableClick role="region" aria-label={props.label}>
        {props.icon}
        <div className={dropText}>{props.children}</div>
        {props.beside}
        <ChooseButton multiple variant={props.chooseVariant ?? 'solid'} />
      </Dropzone>
    </FilePicker>
  )
}

/** The repository's drop zone. */
export function UploadDrop(props: { onFiles: (files: File[]) => void; beside?: ReactNode }) {
  return (
    <DropZone
      label="Upload files"
      accept={FILE_ACCEPT}
      testId="file-picker"
      onFiles={props.onFiles}
      beside={props.beside}
      icon={<Upload aria-hidden />}
    >
      <div className={dropTitle}>Drop files here to upload</div>
      PDF, Word, Excel, CSV, text, Markdown or HTML, up to {DEFAULT_MAX_UPLOAD_MB} MB each.
    </DropZone>
  )
}
