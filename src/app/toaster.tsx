import { createActorContext } from '@xstate/react'
import { selectVisibleToasts, toasterMachine } from '../../machines/toaster/index.ts'
import { ToastCard, ToastViewport } from '../components/ui/toast.tsx'

/** App-wide toasts: top-right, 4 s by default, 3 visible at once (spec sections 2 and 9). */
export const ToasterContext = createActorContext(toasterMachine)

/** `const toast = useToast(); toast({ title: 'Saved', type: 'success' })` */
export function useToast() {
  const toaster = ToasterContext.useActorRef()
  return (toast: Parameters<typeof showEvent>[0]) => toaster.send(showEvent(toast))
}

const showEvent = (toast: {
  title: string
  description?: string
  type?: 'info' | 'success' | 'warning' | 'error'
  duration?: number | null
  id?: string
  action?: { label: string; key: string }
}) => ({ type: 'toast.show' as const, toast: { type: 'info' as const, ...toast } })

export function Toaster() {
  const toaster = ToasterContext.useActorRef()
  const toasts = ToasterContext.useSelector(selectVisibleToasts)
  return (
    <ToastViewport>
      {toasts.map((toast) => (
        <ToastCard
          key={toast.id}
          id={toast.id}
          title={toast.title}
          description={toast.description}
          type={toast.type}
          actionLabel={toast.action?.label}
          onAction={
            toast.action ? () => toaster.send({ type: 'toast.action', id: toast.id }) : undefined
          }
          onClose={() => toaster.send({ type: 'toast.dismiss', id: toast.id })}
          onPointerEnter={() => toaster.send({ type: 'toast.pause', id: toast.id })}
          onPointerLeave={() => toaster.send({ type: 'toast.resume', id: toast.id })}
        />
      ))}
    </ToastViewport>
  )
}
