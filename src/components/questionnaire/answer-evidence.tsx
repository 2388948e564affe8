import { useId, useState } from 'react'
import { css } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import { fieldLabel } from '../styles.ts'
import { Button } from '../ui/button.tsx'
import { actions } from './answer-styles.ts'

/** Evidence to regenerate an answer from: a pasted excerpt, or files of the repository. */
export function EvidenceForm(props: {
  files: { id: number; name: string }[]
  onSubmit: (evidence: string | undefined, fileIds: number[] | undefined) => void
}) {
  const [evidence, setEvidence] = useState('')
  const [fileIds, setFileIds] = useState<number[]>([])
  const evidenceId = useId()
  return (
    <form
      className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
      onSubmit={(event) => {
        event.preventDefault()
        if (!evidence.trim() && !fileIds.length) return
        props.onSubmit(evidence.trim() || undefined, fileIds.length ? fileIds : undefined)
      }}
    >
      <label className={fieldLabel} htmlFor={evidenceId}>
        Evidence to answer from
      </label>
      <textarea
        id={evidenceId}
        className={textarea({ size: 'sm' })}
        rows={4}
        placeholder="Paste a policy excerpt or a fact. It is quoted as a source, never followed as an instruction."
        value={evidence}
        onChange={(event) => setEvidence(event.target.value)}
      />
      {props.files.length > 0 && (
        <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
          <legend className={fieldLabel}>Or answer from these files</legend>
          <div className={css({ maxH: '8rem', overflowY: 'auto', textStyle: 'sm' })}>
            {props.files.map((file) => (
              <label
                key={file.id}
                className={css({
                  display: 'flex',
                  gap: '2',
                  alignItems: 'center',
                  py: '0.5',
                })}
              >
                <input
                  type="checkbox"
                  checked={fileIds.includes(file.id)}
                  onChange={() =>
                    setFileIds((ids) =>
                      ids.includes(file.id)
                        ? ids.filter((id) => id !== file.id)
                        : [...ids, file.id],
                    )
                  }
                />
                <span className={css({ overflowWrap: 'anywhere' })}>{file.name}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className={actions}>
        <Button type="submit" size="xs" disabled={!evidence.trim() && !fileIds.length}>
          Regenerate from this evidence
        </Button>
      </div>
    </form>
  )
}
