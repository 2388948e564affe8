import { useActorRef } from '@xstate/react'
import { KeyRound, Link2, UserMinus, UserPlus } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { USER_STATUSES, type UserStatus } from '../../../contract/auth.ts'
import { ROLE_TEXTS, ROLES, type Role } from '../../../contract/roles.ts'
import { peopleMachine, peopleView, personRow } from '../../../machines/people/index.ts'
import { peopleActors } from '../../api/people-actors.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { Pager } from '../../components/files/pager.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert, RowActions } from '../../components/row-actions.tsx'
import { alert, card, muted, nameText, pill, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { Input } from '../../components/ui/input.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'
import { InviteDialog, TemporaryPasswordDialog } from './people-dialogs.tsx'

/** The people machine with the real calls; tests pass their own. */
export const createPeopleLogic = (actors = peopleActors()) => peopleMachine.provide({ actors })
export type PeopleLogic = ReturnType<typeof createPeopleLogic>
const defaultLogic = createPeopleLogic()

const STATUS_LABELS: Record<UserStatus, string> = {
  active: 'Active',
  invited: 'Invited',
  pending: 'Asks to join',
  disabled: 'Disabled',
  removed: 'Removed',
}
const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_TEXTS[role].name }))
const ROLE_FILTER_OPTIONS = [{ value: '', label: 'All roles' }, ...ROLE_OPTIONS]
const STATUS_FILTER_OPTIONS = [
  { value: '', label: 'Current people' },
  ...USER_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
]
const STATUS_COLOURS: Record<UserStatus, string> = {
  active: css({ bg: 'green.a3', color: 'green.11' }),
  invited: css({ bg: 'amber.a3', color: 'amber.11' }),
  pending: css({ bg: 'blue.a3', color: 'blue.11' }),
  disabled: css({ bg: 'gray.a3', color: 'fg.muted' }),
  removed: css({ bg: 'gray.a3', color: 'fg.muted' }),
}

const list = css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '3' })
// a card per person: on a phone, name and actions, then the role, then status and last sign-in;
// from md up, one line
const row = css({
  display: 'grid',
  gridTemplateColumns: { base: 'minmax(0, 1fr) auto', md: 'minmax(0, 2fr) 10rem 6rem 8rem 2.5rem' },
  gridTemplateAreas: {
    base: '"who actions" "role role" "status last"',
    md: '"who role status last actions"',
  },
  gap: { base: '2', md: '4' },
  alignItems: 'center',
})
const who = css({ gridArea: 'who', minW: '0' })
const email = css({ textStyle: 'xs', color: 'fg.muted', truncate: true })
const roleSelect = css({ gridArea: 'role' })
const statusCell = css({ gridArea: 'status', justifySelf: 'start' })
const lastCell = css({ gridArea: 'last', justifySelf: { base: 'end', md: 'start' } })
const actionsCell = css({ gridArea: 'actions', justifySelf: 'end' })
const notice = css({
  p: '3',
  borderRadius: 'l2',
  bg: 'green.a2',
  color: 'green.11',
  textStyle: 'sm',
  borderWidth: '1px',
  borderColor: 'green.a6',
})
const narrow = css({ w: { base: 'full', sm: 'auto' }, minW: { sm: '10rem' } })

/** Settings → People (admins): who is in the organisation, with what role, and what to do. */
export function PeopleSection({
  logic = defaultLogic,
  selfId,
  onChanged,
}: {
  logic?: PeopleLogic
  selfId: number | null
  /** After a change the server recorded (an invite, a role, a removal, a link, a password). */
  onChanged?: () => void
}) {
  const people = useActorRef(logic)
  const view = useView(people, peopleView)
  useEmitted(() => [people.on('changed', () => onChanged?.())], [people, onChanged])

  return (
    <section aria-labelledby="people-heading">
      <div className={flex({ justify: 'space-between', align: 'center', gap: '3', wrap: 'wrap' })}>
        <h2 id="people-heading" className={css({ textStyle: 'lg', fontWeight: 'semibold' })}>
          People
        </h2>
        <Button onClick={() => people.send({ type: 'invite.open' })}>
          <UserPlus /> Invite
        </Button>
      </div>
      <div className={`${toolbar} ${css({ mt: '3' })}`}>
        <Input
          className={css({ flex: '1', minW: '12rem' })}
          placeholder="Search by name or email"
          aria-label="Search people"
          value={view.query.q}
          onChange={(event) => people.send({ type: 'search.change', q: event.target.value })}
        />
        <SimpleSelect
          label="Filter by role"
          hideLabel
          size="md"
          className={narrow}
          options={ROLE_FILTER_OPTIONS}
          value={view.query.role}
          onChange={(value) =>
            people.send({
              type: 'filter.change',
              role: value as Role | '',
              status: view.query.status,
            })
          }
        />
        <SimpleSelect
          label="Filter by status"
          hideLabel
          size="md"
          className={narrow}
          options={STATUS_FILTER_OPTIONS}
          value={view.query.status}
          onChange={(value) =>
            people.send({
              type: 'filter.change',
              role: view.query.role,
              status: value as UserStatus | '',
            })
          }
        />
      </div>
      {view.notice && (
        <p className={`${notice} ${css({ mt: '3' })}`} role="status">
          {view.notice}
        </p>
      )}
      {view.pageError && (
        <p className={`${alert} ${css({ mt: '3' })}`} role="alert">
          {view.pageError}
        </p>
      )}
      {view.listError && (
        <div className={css({ mt: '3' })}>
          <RetryAlert error={view.listError} onRetry={() => people.send({ type: 'refresh' })} />
        </div>
      )}
      {view.loading ? (
        <p className={`${muted} ${css({ mt: '3' })}`}>Loading people...</p>
      ) : (
        <ul className={list} aria-label="People">
          {view.people.length === 0 && !view.listError && (
            <li className={muted}>No one matches.</li>
          )}
          {view.people.map((person) => {
            const offer = personRow(person, { selfId, busy: view.busy })
            return (
              <li key={person.id} className={card}>
                <div className={row}>
                  <div className={who}>
                    <p className={nameText}>
                      {offer.name}
                      {offer.you && <span className={muted}> (you)</span>}
                    </p>
                    <p className={email}>{person.email}</p>
                  </div>
                  <SimpleSelect
                    label={`Role of ${offer.name}`}
                    hideLabel
                    size="md"
                    className={roleSelect}
                    options={ROLE_OPTIONS}
                    value={person.role}
                    disabled={offer.roleDisabled}
                    onChange={(value) =>
                      people.send({ type: 'role.change', id: person.id, role: value as Role })
                    }
                  />
                  <span className={`${pill} ${statusCell} ${STATUS_COLOURS[person.status]}`}>
                    {STATUS_LABELS[person.status]}
                  </span>
                  <span className={`${muted} ${lastCell}`} title="Last sign-in">
                    {person.last_login_at ? (
                      <RelativeTime iso={person.last_login_at} />
                    ) : (
                      'Never signed in'
                    )}
                  </span>
                  <div className={actionsCell}>
                    {offer.awaitingApproval && (
                      <div className={flex({ gap: '1' })}>
                        <Button
                          size="xs"
                          disabled={view.busy}
                          onClick={() => people.send({ type: 'join.approve', id: person.id })}
                        >
                          Approve
                        </Button>
                        <Button
                          size="xs"
                          variant="outline"
                          disabled={view.busy}
                          onClick={() => people.send({ type: 'join.reject', id: person.id })}
                        >
                          Reject
                        </Button>
                      </div>
                    )}
                    {offer.menu && (
                      <RowActions name={offer.name}>
                        {offer.menu.signInHelp && (
                          <>
                            <Menu.Item
                              value="magic-link"
                              onClick={() => people.send({ type: 'magicLink.send', id: person.id })}
                            >
                              <Link2 /> Send sign-in link
                            </Menu.Item>
                            <Menu.Item
                              value="temporary-password"
                              onClick={() =>
                                people.send({ type: 'temporaryPassword.ask', id: person.id })
                              }
                            >
                              <KeyRound /> Set temporary password
                            </Menu.Item>
                          </>
                        )}
                        <Menu.Item
                          value="remove"
                          onClick={() => people.send({ type: 'remove.ask', id: person.id })}
                        >
                          <UserMinus /> Remove
                        </Menu.Item>
                      </RowActions>
                    )}
                  </div>
                </div>
              </li>
            )
          })}
        </ul>
      )}
      <Pager
        total={view.pager.total}
        page={view.pager.page}
        pages={view.pager.pages}
        position={view.pager.position}
        onPage={(page) => people.send({ type: 'page.change', page })}
      />

      <InviteDialog
        open={view.inviting}
        form={view.invite}
        busy={view.busy}
        error={view.actionError}
        onEdit={(change) => people.send({ type: 'invite.edit', change })}
        onSubmit={() => people.send({ type: 'invite.submit' })}
        onClose={() => people.send({ type: 'dialog.close' })}
      />
      <ConfirmDialog
        open={view.confirmingRemoval}
        title={`Remove ${view.targetName ?? 'this person'}?`}
        description="They lose access at once: their open sessions end and their links stop working. Their work stays."
        confirmLabel="Remove"
        busy={view.busy}
        error={view.actionError}
        onConfirm={() => people.send({ type: 'remove.confirm' })}
        onCancel={() => people.send({ type: 'dialog.close' })}
      />
      <ConfirmDialog
        open={view.confirmingPassword}
        title={`Set a temporary password for ${view.targetName ?? 'this person'}?`}
        description="Their current password stops working and their sessions end. The temporary one works for a single sign-in within 24 hours, which must set a new password."
        confirmLabel="Set temporary password"
        busy={view.busy}
        error={view.actionError}
        onConfirm={() => people.send({ type: 'temporaryPassword.confirm' })}
        onCancel={() => people.send({ type: 'dialog.close' })}
      />
      <TemporaryPasswordDialog
        temporary={view.temporary}
        onClose={() => people.send({ type: 'dialog.close' })}
      />
    </section>
  )
}
