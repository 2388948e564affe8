import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { SessionContext } from '../../src/app/session.tsx'
import { Toaster, ToasterContext } from '../../src/app/toaster.tsx'
import { readingSession } from './ui-session.ts'

/** Renders a page as the app does: in a session still reading its tokens, with the toaster. */
export const renderInSession = (node: ReactNode) =>
  render(
    <SessionContext.Provider logic={readingSession}>
      <ToasterContext.Provider>
        {node}
        <Toaster />
      </ToasterContext.Provider>
    </SessionContext.Provider>,
  )
