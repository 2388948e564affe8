import { Link } from '@tanstack/react-router'
import { useActorRef } from '@xstate/react'
import {
  AlertTriangle,
  ArrowRight,
  BookOpen,
  ClipboardList,
  FolderOpen,
  MessagesSquare,
} from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex, grid } from 'styled-system/patterns'
import { libraryHealthView } from '../../../machines/library-health/index.ts'
import { selectUser } from '../../../machines/session/index.ts'
import { createHomeLogic, type HomeLogic } from '../../api/knowledge-logic.ts'
import { SessionContext } from '../../app/session.tsx'
import { useView } from '../../app/use-view.ts'
import { focusRing } from '../../components/styles.ts'
import { PageHeader } from '../page-header.tsx'
import { MyWorkSection } from './my-work-section.tsx'
import { TeamSection } from './team-section.tsx'

const STEPS = [
  {
    to: '/repository',
    icon: FolderOpen,
    title: 'Add your documents',
    text: 'Upload policies, audit reports and architecture notes. Quire reads them and cites them as evidence.',
  },
  {
    to: '/knowledge-base',
    icon: BookOpen,
    title: 'Keep approved answers',
    text: 'Your library of question-and-answer pairs: every approved answer makes the next questionnaire faster.',
  },
  {
    to: '/questionnaires',
    icon: ClipboardList,
    title: 'Answer a questionnaire',
    text: 'Upload a CAIQ, HECVAT, SIG or your customer’s own spreadsheet and get every answer drafted with sources.',
  },
  {
    to: '/chat',
    icon: MessagesSquare,
    title: 'Ask the assistant',
    text: 'Ask a one-off security question and get an answer grounded in your own documents.',
  },
] as const

const cards = grid({ gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)' }, gap: '4' })
const card = flex({
  gap: '4',
  p: '5',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'xl',
  bg: 'bg.default',
  boxShadow: 'xs',
  textDecoration: 'none',
  color: 'inherit',
  transition: 'border-color 120ms, box-shadow 120ms, transform 120ms',
  _hover: { borderColor: 'colorPalette.a7', boxShadow: 'md' },
})
const icon = css({
  display: 'grid',
  placeItems: 'center',
  flexShrink: 0,
  w: '10',
  h: '10',
  borderRadius: 'lg',
  bg: 'colorPalette.a3',
  color: 'colorPalette.text',
})
const stepNo = css({ textStyle: 'xs', fontWeight: 'semibold', color: 'colorPalette.text', mb: '1' })
const cardTitle = flex({ align: 'center', gap: '1.5', fontWeight: 'semibold', mb: '1' })
const cardText = css({ textStyle: 'sm', color: 'fg.muted' })

// what needs attention: a line of links above the steps
const attention = flex({
  gap: { base: '2', md: '3' },
  direction: { base: 'column', md: 'row' },
  mb: '6',
})
const attentionLink = flex({
  align: 'center',
  gap: '2',
  px: '4',
  py: '3',
  borderWidth: '1px',
  borderColor: 'amber.a6',
  borderRadius: 'l3',
  bg: 'amber.a2',
  color: 'amber.text',
  textStyle: 'sm',
  fontWeight: 'medium',
  textDecoration: 'none',
  _hover: { borderColor: 'amber.a8' },
})

const defaultLogic = createHomeLogic()

/** Home: what needs attention (stale library answers, answers whose source changed), my work, then where to start. */
export default function HomePage({ logic = defaultLogic }: { logic?: HomeLogic }) {
  const health = useActorRef(logic.health)
  const team = useActorRef(logic.team)
  const { counts } = useView(health, libraryHealthView)
  const user = SessionContext.useSelector(selectUser)
  const greeting = user?.first_name ? `Welcome back, ${user.first_name}` : 'Welcome to Quire'
  return (
    <>
      <PageHeader
        title={greeting}
        description="Quire drafts every questionnaire answer from your own approved knowledge, with its evidence, and hands back the customer’s file with its layout intact."
      />
      {(counts.stale > 0 || counts.source_changed > 0) && (
        <section className={attention} aria-label="Needs attention" data-testid="home-attention">
          {counts.stale > 0 && (
            <Link to="/knowledge-base" className={cx(attentionLink, focusRing)}>
              <AlertTriangle size={16} aria-hidden />
              {counts.stale === 1
                ? '1 library answer is stale'
                : `${counts.stale} library answers are stale`}
              <ArrowRight size={14} aria-hidden />
            </Link>
          )}
          {counts.source_changed > 0 && (
            <Link to="/questionnaires" className={cx(attentionLink, focusRing)}>
              <AlertTriangle size={16} aria-hidden />
              {counts.source_changed === 1
                ? '1 answer cites a document that changed'
                : `${counts.source_changed} answers cite a document that changed`}
              <ArrowRight size={14} aria-hidden />
            </Link>
          )}
        </section>
      )}
      <MyWorkSection />
      <TeamSection actor={team} />
      <div className={cards}>
        {STEPS.map((step, index) => (
          <Link key={step.to} to={step.to} className={cx(card, focusRing)}>
            <span className={icon}>
              <step.icon size={20} aria-hidden />
            </span>
            <span>
              <span className={stepNo}>Step {index + 1}</span>
              <span className={cardTitle}>
                {step.title}
                <ArrowRight size={14} aria-hidden />
              </span>
              <span className={cardText}>{step.text}</span>
            </span>
          </Link>
        ))}
      </div>
    </>
  )
}
