import { Link } from '@tanstack/react-router'
import {
  ArrowRight,
  BookOpen,
  CheckCircle2,
  ClipboardList,
  FolderOpen,
  MessagesSquare,
} from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { grid } from 'styled-system/patterns'
import type { TeamOverview } from '../../../contract/collaboration.ts'
import { focusRing } from '../../components/styles.ts'

/** Home's first steps (issue 30): shown until each is done, each marked as it is. */

const STEPS = [
  {
    key: 'documents',
    to: '/repository',
    icon: FolderOpen,
    title: 'Add your documents',
    text: 'Policies, audit reports and architecture notes: Quire reads them and cites them as evidence.',
  },
  {
    key: 'library',
    to: '/knowledge-base',
    icon: BookOpen,
    title: 'Keep approved answers',
    text: 'Import a completed questionnaire or write answers: each one makes the next questionnaire faster.',
  },
  {
    key: 'questionnaire',
    to: '/questionnaires',
    icon: ClipboardList,
    title: 'Answer a questionnaire',
    text: 'Upload a CAIQ, HECVAT, SIG or your customer’s own file and get every answer drafted with sources.',
  },
  {
    key: 'chat',
    to: '/chat',
    icon: MessagesSquare,
    title: 'Ask a question',
    text: 'A one-off security question, answered from your own documents with their sources.',
  },
] as const

const section = css({ mb: '8' })
const head = css({ display: 'flex', alignItems: 'baseline', gap: '3', mb: '3', flexWrap: 'wrap' })
const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const tally = css({ textStyle: 'sm', color: 'fg.muted' })
const cards = grid({ gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)' }, gap: '3' })
const card = css({
  display: 'flex',
  gap: '3.5',
  p: '4',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'xl',
  bg: 'bg.default',
  textDecoration: 'none',
  color: 'inherit',
  transition: 'border-color 120ms, box-shadow 120ms',
  _hover: { borderColor: 'colorPalette.a7', boxShadow: 'sm' },
  '&[data-done]': { bg: 'bg.subtle', _hover: { boxShadow: 'none' } },
})
const icon = css({
  display: 'grid',
  placeItems: 'center',
  flexShrink: 0,
  w: '9',
  h: '9',
  borderRadius: 'lg',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
  '[data-done] &': { bg: 'green.a3', color: 'green.text' },
})
const title = css({
  display: 'flex',
  alignItems: 'center',
  gap: '1.5',
  fontWeight: 'semibold',
  textStyle: 'sm',
  mb: '0.5',
  '[data-done] &': { color: 'fg.muted', textDecoration: 'line-through' },
})
const text = css({ textStyle: 'sm', color: 'fg.muted' })

export function FirstSteps(props: { steps: TeamOverview['first_steps'] }) {
  const done = STEPS.filter((step) => props.steps[step.key]).length
  return (
    <section className={section} aria-labelledby="home-first-steps" data-testid="first-steps">
      <div className={head}>
        <h2 id="home-first-steps" className={heading}>
          Get started
        </h2>
        <span className={tally}>
          {done} of {STEPS.length} done
        </span>
      </div>
      <ol className={cards}>
        {STEPS.map((step) => {
          const isDone = props.steps[step.key]
          const Icon = isDone ? CheckCircle2 : step.icon
          return (
            <li key={step.key}>
              <Link
                to={step.to}
                className={cx(card, focusRing)}
                data-done={isDone ? '' : undefined}
                aria-label={`${step.title}${isDone ? ' (done)' : ''}`}
              >
                <span className={icon}>
                  <Icon size={18} aria-hidden />
                </span>
                <span>
                  <span className={title}>
                    {step.title}
                    {!isDone && <ArrowRight size={14} aria-hidden />}
                  </span>
                  <span className={text}>{step.text}</span>
                </span>
              </Link>
            </li>
          )
        })}
      </ol>
    </section>
  )
}
