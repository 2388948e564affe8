import { useActorRef } from '@xstate/react'
import { libraryHealthView } from '../../../machines/library-health/index.ts'
import { teamOverviewView } from '../../../machines/team-overview/index.ts'
import { createHomeLogic, type HomeLogic } from '../../api/knowledge-logic.ts'
import { useView } from '../../app/use-view.ts'
import { Button } from '../../components/ui'
import { FirstSteps } from './first-steps.tsx'
import { MyWorkSection } from './my-work-section.tsx'
import { InProgress, OverviewTiles } from './progress-section.tsx'
import { TeamSection } from './team-section.tsx'

const defaultLogic = createHomeLogic()

/**
 * Home (issue 30): the organisation's state. The first steps until they are taken, four figures
 * (in progress, awaiting review, overdue, library health), the questionnaires in progress, my
 * work, and the team's recent activity.
 */
export default function HomePage({ logic = defaultLogic }: { logic?: HomeLogic }) {
  const health = useActorRef(logic.health)
  const team = useActorRef(logic.team)
  const { counts } = useView(health, libraryHealthView)
  const view = useView(team, teamOverviewView)
  const { overview } = view
  return (
    <>
      {view.error && (
        <p role="alert">
          {view.error}{' '}
          <Button size="xs" variant="outline" onClick={() => team.send({ type: 'retry' })}>
            Try Again
          </Button>
        </p>
      )}
      {!view.loading && !view.started && <FirstSteps steps={view.firstSteps} />}
      {!view.loading && !view.error && <OverviewTiles overview={overview} library={counts} />}
      <InProgress overview={overview} />
      <MyWorkSection />
      <TeamSection actor={team} />
    </>
  )
}
