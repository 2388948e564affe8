// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  Button,
  Dialog,
  Field,
  getInitials,
  IconButton,
  InitialsAvatar,
  LinearProgress,
  Menu,
  SimpleTooltip,
  Spinner,
  ToastCard,
  ToastViewport,
} from '../../src/components/ui'

afterEach(cleanup)

describe('Button', () => {
  it('shows a spinner, is busy and cannot be clicked while loading', async () => {
    const onClick = vi.fn()
    render(
      <Button loading onClick={onClick}>
        Save
      </Button>,
    )
    const button = screen.getByRole('button')
    expect(button).toHaveProperty('disabled', true)
    expect(button.getAttribute('aria-busy')).toBe('true')
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy()
    await userEvent.click(button)
    expect(onClick).not.toHaveBeenCalled()
  })

  it('shows the loading text beside the spinner when given', () => {
    render(
      <Button loading loadingText="Saving…">
        Save
      </Button>,
    )
    expect(screen.getByRole('button').textContent).toBe('Saving…')
  })

  it('is an ordinary enabled button without a spinner when not loading', async () => {
    const onClick = vi.fn()
    render(<Button onClick={onClick}>Save</Button>)
    const button = screen.getByRole('button', { name: 'Save' })
    expect(button.hasAttribute('aria-busy')).toBe(false)
    expect(screen.queryByRole('status')).toBeNull()
    await userEvent.click(button)
    expect(onClick).toHaveBeenCalledOnce()
  })
})

describe('IconButton', () => {
  it('is named by its aria-label', () => {
    render(
      <IconButton aria-label="Archive">
        <svg />
      </IconButton>,
    )
    expect(screen.getByRole('button', { name: 'Archive' })).toBeTruthy()
  })
})

describe('Spinner', () => {
  it('announces itself as loading', () => {
    render(<Spinner />)
    expect(screen.getByRole('status').getAttribute('aria-label')).toBe('Loading')
  })
})

describe('InitialsAvatar', () => {
  it('shows the first and last initials of a full name', () => {
    render(<InitialsAvatar name="Jane Doe" />)
    expect(screen.getByText('JD')).toBeTruthy()
    expect(screen.getByRole('img', { name: 'Jane Doe' })).toBeTruthy()
  })

  it('shows one letter for a single name', () => {
    render(<InitialsAvatar name="madonna" />)
    expect(screen.getByText('M')).toBeTruthy()
  })

  it('falls back to a question mark for an empty name', () => {
    render(<InitialsAvatar name="   " />)
    expect(screen.getByText('?')).toBeTruthy()
  })

  it('uses at most two initials', () => {
    expect(getInitials('Jane van der Doe')).toBe('JD')
    expect(getInitials('  ada   lovelace ')).toBe('AL')
  })
})

describe('ToastCard', () => {
  it('renders its title and description as a status', () => {
    render(<ToastCard title="Saved" description="Your answers are stored." type="success" />)
    const toast = screen.getByRole('status')
    expect(toast.textContent).toContain('Saved')
    expect(toast.textContent).toContain('Your answers are stored.')
    expect(toast.getAttribute('data-type')).toBe('success')
  })

  it('is an alert for errors', () => {
    render(<ToastCard title="Upload failed" type="error" />)
    expect(screen.getByRole('alert').textContent).toContain('Upload failed')
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('calls onAction and onClose from its buttons', async () => {
    const onAction = vi.fn()
    const onClose = vi.fn()
    render(<ToastCard title="Deleted" actionLabel="Undo" onAction={onAction} onClose={onClose} />)
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }))
    expect(onAction).toHaveBeenCalledOnce()
    expect(onClose).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onClose).toHaveBeenCalledOnce()
  })

  it('reports hover so a dismiss timer can pause', async () => {
    const onPointerEnter = vi.fn()
    const onPointerLeave = vi.fn()
    render(<ToastCard title="Hi" onPointerEnter={onPointerEnter} onPointerLeave={onPointerLeave} />)
    await userEvent.hover(screen.getByRole('status'))
    expect(onPointerEnter).toHaveBeenCalled()
    await userEvent.unhover(screen.getByRole('status'))
    expect(onPointerLeave).toHaveBeenCalled()
  })

  it('stacks inside a named viewport', () => {
    render(
      <ToastViewport>
        <ToastCard title="One" />
        <ToastCard title="Two" />
      </ToastViewport>,
    )
    const viewport = screen.getByRole('region', { name: 'Notifications' })
    expect(viewport.querySelectorAll('[role="status"]')).toHaveLength(2)
  })
})

describe('Field', () => {
  it('shows the error text and marks the input invalid when invalid', () => {
    render(
      <Field.Root invalid>
        <Field.Label>Email</Field.Label>
        <Field.Input />
        <Field.ErrorText>Enter a valid email</Field.ErrorText>
      </Field.Root>,
    )
    const input = screen.getByLabelText('Email')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('Enter a valid email')).toBeTruthy()
  })

  it('hides the error text and shows the helper text when valid', () => {
    render(
      <Field.Root>
        <Field.Label>Email</Field.Label>
        <Field.Input />
        <Field.HelperText>We never share it</Field.HelperText>
        <Field.ErrorText>Enter a valid email</Field.ErrorText>
      </Field.Root>,
    )
    expect(screen.queryByText('Enter a valid email')).toBeNull()
    expect(screen.getByText('We never share it')).toBeTruthy()
    expect(screen.getByLabelText('Email').hasAttribute('aria-invalid')).toBe(false)
  })
})

describe('LinearProgress', () => {
  it('renders its label and value text', () => {
    render(<LinearProgress label="Uploading" value={40} />)
    expect(screen.getByText('Uploading')).toBeTruthy()
    expect(screen.getByText('40%')).toBeTruthy()
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40')
  })

  it('is indeterminate with a null value', () => {
    render(<LinearProgress label="Preparing" value={null} />)
    const bar = screen.getByRole('progressbar')
    expect(bar.hasAttribute('aria-valuenow')).toBe(false)
    expect(screen.queryByText(/%/)).toBeNull()
  })
})

describe('Dialog', () => {
  it('opens from its trigger and closes from the X button', async () => {
    render(
      <Dialog.Root>
        <Dialog.Trigger asChild>
          <Button>Open</Button>
        </Dialog.Trigger>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Title>Delete file</Dialog.Title>
            <Dialog.Description>This cannot be undone.</Dialog.Description>
            <Dialog.CloseTrigger />
          </Dialog.Content>
        </Dialog.Positioner>
      </Dialog.Root>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete file' })
    expect(dialog.textContent).toContain('This cannot be undone.')
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})

describe('Menu', () => {
  it('opens from its trigger and reports the chosen item', async () => {
    const onSelect = vi.fn()
    render(
      <Menu.Root onSelect={(details) => onSelect(details.value)}>
        <Menu.Trigger asChild>
          <Button>Actions</Button>
        </Menu.Trigger>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel>File</Menu.ItemGroupLabel>
              <Menu.Item value="rename">Rename</Menu.Item>
              <Menu.Separator />
              <Menu.Item value="delete">Delete</Menu.Item>
            </Menu.ItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Menu.Root>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Actions' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    expect(onSelect).toHaveBeenCalledWith('delete')
  })
})

describe('SimpleTooltip', () => {
  it('shows its content while the trigger is hovered', async () => {
    render(
      <SimpleTooltip content="Archive the questionnaire" openDelay={0} closeDelay={0}>
        <IconButton aria-label="Archive">
          <svg />
        </IconButton>
      </SimpleTooltip>,
    )
    expect(screen.queryByText('Archive the questionnaire')).toBeNull()
    await userEvent.hover(screen.getByRole('button', { name: 'Archive' }))
    expect(await screen.findByText('Archive the questionnaire')).toBeTruthy()
  })
})
