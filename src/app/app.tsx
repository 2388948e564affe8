import { RouterProvider } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
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
    return () => sub.unsubscribe()
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
