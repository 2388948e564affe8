import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { type trustAskMachine, trustAskView } from '../../../machines/trust-ask/index.ts'
import { useView } from '../../app/use-view.ts'
import { callout } from '../../components/form-styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'

const box = css({
  p: { base: '4', md: '5' },
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l3',
  bg: 'bg.default',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
})
const row = css({ display: 'flex', gap: '2', flexDirection: { base: 'column', sm: 'row' } })
const answerText = css({ whiteSpace: 'pre-line', lineHeight: '1.6' })
const sources = css({ display: 'grid', gap: '1.5', listStyle: 'none', p: '0', textStyle: 'xs' })
const source = css({
  color: 'fg.muted',
  borderLeftWidth: '2px',
  borderColor: 'border.default',
  pl: '2',
})

/** Ask the trust centre (issue 40): renders the ask machine; answers come from public items only. */
export function AskBox(props: { actor: ActorRefFrom<typeof trustAskMachine> }) {
  const { actor } = props
  const view = useView(actor, trustAskView)
  return (
    <section aria-labelledby="trust-ask" className={box}>
      <h2 id="trust-ask" className={css({ textStyle: 'lg', fontWeight: 'semibold' })}>
        Ask a question
      </h2>
      <form
        className={row}
        onSubmit={(event) => {
          event.preventDefault()
          actor.send({ type: 'ask' })
        }}
      >
        <Field.Root className={css({ flex: '1' })}>
          <Field.Label className={css({ srOnly: true })}>Your question</Field.Label>
          <Field.Input
            value={view.question}
            maxLength={500}
            placeholder="Do you encrypt customer data at rest?"
            onChange={(event) => actor.send({ type: 'edit', question: event.target.value })}
          />
        </Field.Root>
        <Button type="submit" loading={view.asking}>
          Ask
        </Button>
      </form>
      {view.error && (
        <p className={callout({ tone: 'error' })} role="alert">
          {view.error}
        </p>
      )}
      {view.answer && (
        <div
          role="status"
          aria-live="polite"
          data-testid="trust-answer"
          className={css({ display: 'grid', gap: '2' })}
        >
          <p className={css({ textStyle: 'xs', color: 'fg.muted' })}>{view.asked}</p>
          <p className={answerText}>{view.answer.answer}</p>
          {view.answer.citations.length > 0 && (
            <ul className={sources} aria-label="Sources">
              {view.answer.citations.map((citation) => (
                <li key={`${citation.title}-${citation.snippet}`} className={source}>
                  <strong>{citation.title}</strong>
                  {citation.snippet && <>: {citation.snippet}</>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  )
}
