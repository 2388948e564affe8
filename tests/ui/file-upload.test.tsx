import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ChooseButton, FilePicker } from '../../src/components/ui/file-upload.tsx'

describe('FilePicker', () => {
  it('hands each choice on at once, the same file again too, and keeps accept on its input', async () => {
    const onFiles = vi.fn()
    render(
      <FilePicker accept=".pdf" multiple testId="picker" onFiles={onFiles}>
        <ChooseButton multiple />
      </FilePicker>,
    )
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeTruthy()
    const input = screen.getByTestId('picker') as HTMLInputElement
    expect(input.type).toBe('file')
    expect(input.accept).toBe('.pdf')
    expect(input.multiple).toBe(true)
    const file = new File(['%PDF-1.4'], 'policy.pdf', { type: 'application/pdf' })
    fireEvent.input(input, { target: { files: [file] } })
    await waitFor(() => expect(onFiles).toHaveBeenCalledTimes(1))
    fireEvent.input(input, { target: { files: [file] } })
    await waitFor(() => expect(onFiles.mock.calls).toEqual([[[file]], [[file]]]))
  })

  it('a single picker says "Choose file" and passes one file', async () => {
    const onFiles = vi.fn()
    render(
      <FilePicker accept="image/png" testId="logo" onFiles={onFiles}>
        <ChooseButton />
      </FilePicker>,
    )
    expect(screen.getByRole('button', { name: 'Choose file' })).toBeTruthy()
    const logo = new File(['png'], 'logo.png', { type: 'image/png' })
    fireEvent.input(screen.getByTestId('logo'), { target: { files: [logo] } })
    await waitFor(() => expect(onFiles).toHaveBeenCalledWith([logo]))
  })
})
