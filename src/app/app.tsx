import { RouterProvider } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { AUTH_ERROR_CODES } from '../../contract/auth.ts'
import { createAppRouter } from '../router.tsx'
import { SessionContext } from './session.tsx'
import { SessionToasts } from './session-toasts.tsx'
import { ToasterContext } from './toaster.tsx'

function RoutedApp() {
  const session = SessionContext.useActorRef()
  const [router] = useState(() => createAppRouter({ session }))
  useEffect(() => {
    // logout and session expiry end on /login, unless already there
    const sub = session.on('logout', () => {
      if (router.state.location.pathname !== '/login') {
        void router.navigate({ to: '/login', replace: true })
      }
    })
    // a signed-in user who must change the password goes to do that before anything else
    const forced = session.on('profile.failed', (event) => {
      if (event.code === AUTH_ERROR_CODES.passwordChangeRequired) {
        void router.navigate({ to: '/force-password-change', replace: true })
      }
    })
    return () => {
      sub.unsubscribe()
      forced.unsubscribe()
    }
  }, [session, router])
  return (
    <>
      <SessionToasts />
      <RouterProvider router={router} />
    </>
  )
}

export function App() {
  return (
    <SessionContext.Provider>
      <ToasterContext.Provider>
        <RoutedApp />
      </ToasterContext.Provider>
    </SessionContext.Provider>
  )
}
