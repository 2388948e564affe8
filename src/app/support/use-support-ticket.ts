import { useActorRef } from '@xstate/react'
import { useEffect } from 'react'
import { SUPPORT_TEXTS } from '../../../contract/support.ts'
import { ToasterContext } from '../toaster.tsx'
import {
  connectSupportTicket,
  createSupportTicketLogic,
  type SupportTicketLogic,
} from './support-actors.ts'

const defaultLogic = createSupportTicketLogic()

/**
 * The support ticket actor of the signed-in layout: its draft goes to localStorage and a sent
 * ticket shows the success toast. Both the sidebar's Support button and 'Ask for a Feature' open it.
 */
export function useSupportTicket(logic: SupportTicketLogic = defaultLogic) {
  const actor = useActorRef(logic)
  const toaster = ToasterContext.useActorRef()
  useEffect(
    () =>
      connectSupportTicket(actor, () =>
        toaster.send({
          type: 'toast.show',
          toast: { title: SUPPORT_TEXTS.submitted, type: 'success' },
        }),
      ),
    [actor, toaster],
  )
  return actor
}
