import { randomBytes } from 'node:crypto'

/** What a person types to register: shared by the server tests and the journeys. */
export interface Account {
  email: string
  password: string
  firstName: string
  lastName: string
  organization: string
}

/** A fresh account: a unique address and organisation, a password that passes the policy. */
export function newAccount(prefix = 'user'): Account {
  const id = randomBytes(4).toString('hex')
  return {
    email: `${prefix}-${id}@example.com`,
    password: `Correct-horse-${id}-battery`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    organization: `Analytical Engines ${id}`,
  }
}
