import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { Button } from '../ui/button.tsx'

const bar = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  flexWrap: 'wrap',
  gap: '3',
  mt: '3',
  textStyle: 'sm',
  color: 'fg.muted',
})

/** The count of a list and, when it has several pages, Previous and Next around `position`. */
export function Pager(props: {
  total: ReactNode
  page: number
  pages: number
  position: ReactNode
  onPage: (page: number) => void
}) {
  return (
    <div className={bar}>
      <span>{props.total}</span>
      {props.pages > 1 && (
        <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
          <Button
            size="sm"
            variant="outline"
            disabled={props.page <= 1}
            onClick={() => props.onPage(props.page - 1)}
          >
            Previous
          </Button>
          <span>{props.position}</span>
          <Button
            size="sm"
            variant="outline"
            disabled={props.page >= props.pages}
            onClick={() => props.onPage(props.page + 1)}
          >
            Next
          </Button>
        </div>
      )}
    </div>
  )
}
