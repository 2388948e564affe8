/**
 * The Free tier every new organisation starts on (spec section 3 fields). Limits are read only from
 * the organisation's stored license row, never from a request (TI6).
 */
export const FREE_TIER = {
  tierName: 'Free',
  maxUsers: 3,
  maxRepository: 50,
  maxQuestionnaire: 5,
  maxAnswers: 500,
  isEvaluation: false,
  multiLanguage: false,
} as const
