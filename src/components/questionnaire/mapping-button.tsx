import type { ActorRefFrom } from 'xstate'
import type { questionnaireWorkspaceMachine } from '../../../machines/questionnaire-workspace/index.ts'
import { Button, type ButtonProps } from '../ui/button.tsx'

/** Opens the column mapping of the tab named `tab`: a small outlined button unless told otherwise. */
export function MappingButton({
  workspace,
  tab,
  ...props
}: ButtonProps & { workspace: ActorRefFrom<typeof questionnaireWorkspaceMachine>; tab: string }) {
  return (
    <Button
      size="sm"
      variant="outline"
      {...props}
      onClick={() => workspace.send({ type: 'mapping.open', tab })}
    />
  )
}
