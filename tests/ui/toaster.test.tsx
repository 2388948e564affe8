import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOAST_DURATION_MS } from '../../machines/constants.ts'
import { Toaster, ToasterContext, useToast } from '../../src/app/toaster.tsx'

function Trigger(props: { n: number }) {
  const toast = useToast()
  return (
    <button type="button" onClick={() => toast({ title: `Toast ${props.n}`, type: 'success' })}>
      show {props.n}
    </button>
  )
}

function renderToaster() {
  return render(
    <ToasterContext.Provider>
      {[1, 2, 3, 4].map((n) => (
        <Trigger key={n} n={n} />
      ))}
      <Toaster />
    </ToasterContext.Provider>,
  )
}

describe('Toaster view', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('shows at most three toasts, top-right, and the fourth when one is closed', () => {
    renderToaster()
    for (const n of [1, 2, 3, 4]) fireEvent.click(screen.getByText(`show ${n}`))
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy()
    expect(screen.getAllByRole('status')).toHaveLength(3)
    expect(screen.queryByText('Toast 4')).toBeNull()
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0] as HTMLElement)
    expect(screen.queryByText('Toast 1')).toBeNull()
    expect(screen.getByText('Toast 4')).toBeTruthy()
  })

  it('removes a toast after 4 s, and not before', () => {
    renderToaster()
    fireEvent.click(screen.getByText('show 1'))
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1))
    expect(screen.getByText('Toast 1')).toBeTruthy()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByText('Toast 1')).toBeNull()
  })

  it('pauses while the pointer is over a toast', () => {
    renderToaster()
    fireEvent.click(screen.getByText('show 1'))
    fireEvent.pointerEnter(screen.getByRole('status'))
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3))
    expect(screen.getByText('Toast 1')).toBeTruthy()
    fireEvent.pointerLeave(screen.getByRole('status'))
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS))
    expect(screen.queryByText('Toast 1')).toBeNull()
  })
})
