/** The columns a query selects of the user who added or changed something (a left join). */
export interface UserCols {
  user_id: string | number | null
  first_name: string | null
  last_name: string | null
  email: string | null
}

/** That user as the API shows them (`added_by`, `by`), or null when the user is gone. */
export const personOf = (row: UserCols) =>
  row.user_id
    ? {
        id: String(row.user_id),
        name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() || (row.email ?? ''),
        email: row.email ?? '',
      }
    : null
