import { Portal } from '@ark-ui/react/portal'
import { MoreHorizontal } from 'lucide-react'
import type { ReactNode } from 'react'
import { alert } from './styles.ts'
import { Button } from './ui/button.tsx'
import { IconButton } from './ui/icon-button.tsx'
import * as Menu from './ui/menu.tsx'

/** The "…" menu at the end of a row: `children` are its `Menu.Item`s. */
export function RowActions(props: { name: string; children: ReactNode }) {
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <IconButton variant="ghost" size="sm" aria-label={`Actions for ${props.name}`}>
          <MoreHorizontal />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>{props.children}</Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}

/** A list that could not be loaded: the reason, and a button to load it again. */
export function RetryAlert(props: { error: string; onRetry: () => void }) {
  return (
    <div className={alert} role="alert">
      {props.error}{' '}
      <Button size="xs" variant="outline" onClick={props.onRetry}>
        Try again
      </Button>
    </div>
  )
}
