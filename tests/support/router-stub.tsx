import type { ReactNode } from 'react'

/**
 * What views use of `@tanstack/react-router`, without a router: a link is an anchor to its path
 * (`$id` filled from its params, `?question=` from its search), and a route's params are `{ id: 7 }`.
 * A test file takes it with `vi.mock('@tanstack/react-router', () => import('../support/router-stub.tsx'))`.
 */
export function Link(props: {
  children: ReactNode
  className?: string
  to?: string
  params?: { id: number }
  search?: { question?: number }
}) {
  const path = props.to?.replace('$id', String(props.params?.id)) ?? '#link'
  const query = props.search?.question ? `?question=${props.search.question}` : ''
  return (
    <a href={`${path}${query}`} className={props.className}>
      {props.children}
    </a>
  )
}

export const getRouteApi = () => ({ useParams: () => ({ id: 7 }) })
