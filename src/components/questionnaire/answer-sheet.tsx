import { Portal } from '@ark-ui/react/portal'
import { X } from 'lucide-react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import * as Drawer from '../ui/drawer.tsx'
import { IconButton } from '../ui/icon-button.tsx'

/** On narrow screens the focused question's answer opens in a sheet over the list. */
export function AnswerSheet(props: { open: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer.Root open={props.open} onOpenChange={(details) => !details.open && props.onClose()}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner className={css({ w: '100vw', maxW: '100vw' })}>
          <Drawer.Content className={css({ w: 'full', maxW: 'full' })}>
            <Drawer.Header
              className={css({ display: 'flex', justifyContent: 'flex-end', pb: '0' })}
            >
              <Drawer.Title className={css({ srOnly: true })}>Answer</Drawer.Title>
              <IconButton size="sm" variant="ghost" aria-label="Close" onClick={props.onClose}>
                <X />
              </IconButton>
            </Drawer.Header>
            <Drawer.Body>{props.children}</Drawer.Body>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  )
}
