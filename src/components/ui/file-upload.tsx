import { FileUpload } from '@ark-ui/react/file-upload'
import { FileText, X } from 'lucide-react'
import type { ComponentProps, ReactNode, Ref } from 'react'
import { css, cx } from 'styled-system/css'
import { fileUpload } from 'styled-system/recipes'
import { Button, type ButtonProps } from './button'
import { IconButton } from './icon-button'
import { createStyleContext } from './utils/create-style-context'

const { withProvider, withContext } = createStyleContext(fileUpload)

export const Root = withProvider(FileUpload.Root, 'root', 'FileUpload.Root')
export const Label = withContext(FileUpload.Label, 'label', 'FileUpload.Label')
export const Dropzone = withContext(FileUpload.Dropzone, 'dropzone', 'FileUpload.Dropzone')
export const Trigger = withContext(FileUpload.Trigger, 'trigger', 'FileUpload.Trigger')
export const HiddenInput = FileUpload.HiddenInput

export type RootProps = ComponentProps<typeof Root>

// Controlled and always empty: the picker hands each choice on and keeps nothing, so the same
// file can be chosen again and the caller's state (a machine's) is the one list of files.
const NOTHING_KEPT: File[] = []
// a picker with no parts of its own (opened by another button) takes no room
const bare = css({ display: 'contents' })

/**
 * A file picker that acts at once: `onFiles` gets what was chosen or dropped. Its
 * `<input type="file">` (Ark's hidden input) keeps `testId`, so tests set files on it as on a
 * native one: Ark reads the input's `input` event. `accept` filters the browser's file dialog
 * only; what is dropped or set reaches `onFiles` unfiltered, so the caller's check words the
 * refusal. `inputRef` lets another button open the dialog. Drops are taken only by a `Dropzone`
 * among the children (`allowDrop`).
 */
export function FilePicker(props: {
  accept: string
  onFiles: (files: File[]) => void
  multiple?: boolean
  testId?: string
  inputRef?: Ref<HTMLInputElement>
  allowDrop?: boolean
  disabled?: boolean
  className?: string
  children?: ReactNode
}) {
  return (
    <Root
      className={cx(props.children === undefined && bare, props.className)}
      acceptedFiles={NOTHING_KEPT}
      maxFiles={props.multiple ? Number.POSITIVE_INFINITY : 1}
      allowDrop={props.allowDrop ?? false}
      disabled={props.disabled}
      onFileAccept={(details) => {
        if (details.files.length > 0) props.onFiles(details.files)
      }}
    >
      {props.children}
      <HiddenInput ref={props.inputRef} accept={props.accept} data-testid={props.testId} />
    </Root>
  )
}

/** The picker's labelled button: "Choose file" or "Choose files" unless told otherwise. */
export function ChooseButton({
  multiple,
  children,
  ...props
}: ButtonProps & { multiple?: boolean }) {
  return (
    <Trigger asChild>
      <Button variant="outline" {...props}>
        {children ?? (multiple ? 'Choose files' : 'Choose file')}
      </Button>
    </Trigger>
  )
}

const rows = fileUpload()
const sizeText = css({ flexShrink: '0' })

/**
 * The files chosen so far, each with its size and a remove button: the list a form keeps (the
 * caller's state), drawn with the recipe's item slots.
 */
export function ChosenFiles(props: {
  label: string
  files: { name: string; size: string }[]
  onRemove: (index: number) => void
  disabled?: boolean
}) {
  if (props.files.length === 0) return null
  return (
    <ul className={rows.itemGroup} aria-label={props.label}>
      {props.files.map((file, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows keep no state, and the same file may be chosen twice
        <li key={`${index}-${file.name}`} className={rows.item}>
          <FileText size={16} aria-hidden className={rows.itemPreview} />
          <span className={cx(rows.itemName, css({ truncate: true }))}>{file.name}</span>
          <span className={cx(rows.itemSizeText, sizeText)}>{file.size}</span>
          <IconButton
            type="button"
            variant="ghost"
            size="xs"
            className={rows.itemDeleteTrigger}
            aria-label={`Remove ${file.name}`}
            disabled={props.disabled}
            onClick={() => props.onRemove(index)}
          >
            <X size={14} aria-hidden />
          </IconButton>
        </li>
      ))}
    </ul>
  )
}
