import { css } from 'styled-system/css'
import { ROLE_TEXTS, ROLES, type Role } from '../../../contract/roles.ts'
import type { TemporaryPassword } from '../../../contract/users.ts'
import type { InviteForm } from '../../../machines/people/index.ts'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { FormDialog } from '../../components/form-dialog.tsx'
import { dialogBox, grid2 } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_TEXTS[role].name }))
const errorText = css({ textStyle: 'sm', color: 'fg.error' })
const secret = css({
  fontFamily: 'mono',
  textStyle: 'lg',
  letterSpacing: 'wide',
  p: '3',
  borderRadius: 'l2',
  bg: 'gray.a3',
  textAlign: 'center',
  userSelect: 'all',
  wordBreak: 'break-all',
})
const hint = css({ textStyle: 'sm', color: 'fg.muted' })

/** Invite a colleague: they get an email with a link to set their password (valid 7 days). */
export function InviteDialog(props: {
  open: boolean
  form: InviteForm
  busy: boolean
  error: string | null
  onEdit: (change: Partial<InviteForm>) => void
  onSubmit: () => void
  onClose: () => void
}) {
  const { form } = props
  return (
    <FormDialog
      open={props.open}
      onClose={props.onClose}
      className={dialogBox({ size: 'md' })}
      title="Invite a colleague"
      description="They get an email with a link to set their password. The link works once, within 7 days."
      error={props.error}
      errorClassName={errorText}
      confirmLabel="Send invitation"
      busy={props.busy}
      lockCancel
      onSubmit={props.onSubmit}
    >
      <Field.Root required>
        <Field.Label>
          Work email <Field.RequiredIndicator />
        </Field.Label>
        <Field.Input
          type="email"
          autoComplete="off"
          value={form.email}
          onChange={(event) => props.onEdit({ email: event.target.value })}
        />
      </Field.Root>
      <div className={grid2}>
        <Field.Root>
          <Field.Label>First name</Field.Label>
          <Field.Input
            value={form.first_name}
            onChange={(event) => props.onEdit({ first_name: event.target.value })}
          />
        </Field.Root>
        <Field.Root>
          <Field.Label>Last name</Field.Label>
          <Field.Input
            value={form.last_name}
            onChange={(event) => props.onEdit({ last_name: event.target.value })}
          />
        </Field.Root>
      </div>
      <div>
        <SimpleSelect
          label="Role"
          inDialog
          size="md"
          options={ROLE_OPTIONS}
          value={form.role}
          onChange={(value) => props.onEdit({ role: value as Role })}
        />
        <p className={css({ textStyle: 'xs', color: 'fg.muted', mt: '1' })}>
          {ROLE_TEXTS[form.role].summary}
        </p>
      </div>
    </FormDialog>
  )
}

/** A temporary password, shown this once: the admin hands it over in person or by phone. */
export function TemporaryPasswordDialog(props: {
  temporary: TemporaryPassword | null
  onClose: () => void
}) {
  return (
    <DialogFrame
      open={props.temporary !== null}
      onClose={props.onClose}
      role="alertdialog"
      className={dialogBox({ size: 'md' })}
      title="Temporary password"
      description="Shown this once. It works for one sign-in, until the time below, and that sign-in must set a new password."
    >
      <p className={secret} data-testid="temporary-password">
        {props.temporary?.temporary_password}
      </p>
      <p className={hint}>
        Valid until {props.temporary ? new Date(props.temporary.expires_at).toLocaleString() : ''}.
        Hand it over in person or by phone, not in the same email as the address.
      </p>
      <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
        <Button onClick={props.onClose}>Done</Button>
      </div>
    </DialogFrame>
  )
}
