import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { GenericErrorScreen, PageErrorFallback } from '../../src/app/errors.tsx'

describe('error screens', () => {
  it("the generic screen says 'Something went wrong' and offers 'Refresh Page' and 'Try Again'", () => {
    const retry = vi.fn()
    render(<GenericErrorScreen onRetry={retry} />)
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }))
    expect(retry).toHaveBeenCalledOnce()
  })

  it("a failing page shows 'Page Error' with 'Refresh Page'", () => {
    render(<PageErrorFallback />)
    expect(screen.getByRole('heading', { name: 'Page Error' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeTruthy()
  })
})
