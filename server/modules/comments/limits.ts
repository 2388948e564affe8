import { COLLABORATION_TEXTS } from '../../../contract/collaboration.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { RateLimiter } from '../../auth/rate-limit.ts'
import { apiError } from '../../http/errors.ts'
import { DEFAULT_GATHERING, type MailGathering } from '../notifications/gather.ts'

/**
 * How much one person may say and to how many (issue 37, S2): the people one comment may name,
 * and the comments and mentions a person may write a minute, counted in PostgreSQL so that the
 * limits hold across nodes; and when their mention emails are gathered into one digest.
 */
export interface CommentSettings extends MailGathering {
  /** People one comment may mention (MENTION_MAX_PEOPLE). */
  maxMentions: number
  /** Comments (new ones and edits) one person may write a minute (COMMENTS_PER_MINUTE). */
  commentsPerMinute: number
  /** People one person may newly mention a minute, in all comments (MENTIONS_PER_MINUTE). */
  mentionsPerMinute: number
}

export const DEFAULT_COMMENT_SETTINGS: CommentSettings = {
  maxMentions: 10,
  commentsPerMinute: 20,
  mentionsPerMinute: 30,
  ...DEFAULT_GATHERING,
}

/** The settings from the configuration's variables. */
export const commentSettingsOf = (config: {
  MENTION_MAX_PEOPLE: number
  COMMENTS_PER_MINUTE: number
  MENTIONS_PER_MINUTE: number
  MAIL_DIGEST_AFTER: number
  MAIL_DIGEST_WINDOW_MINUTES: number
}): CommentSettings => ({
  maxMentions: config.MENTION_MAX_PEOPLE,
  commentsPerMinute: config.COMMENTS_PER_MINUTE,
  mentionsPerMinute: config.MENTIONS_PER_MINUTE,
  digestAfter: config.MAIL_DIGEST_AFTER,
  digestWindowMs: config.MAIL_DIGEST_WINDOW_MINUTES * 60_000,
})

const MINUTE_MS = 60_000
const fill = (text: string, values: Record<string, number>) =>
  text.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole))

/** Gives back what a call took when it is refused or fails: it then costs nothing. */
export type GiveBack = () => Promise<void>
const nothing: GiveBack = async () => {}

export function commentLimits(limiter: RateLimiter, settings: CommentSettings) {
  /**
   * Takes `weight` hits of a person's minute at once: past the limit nothing is taken and the call
   * is refused with 429 and Retry-After; otherwise the way to give them back.
   */
  async function take(key: string, limit: number, weight: number, text: string) {
    if (weight <= 0) return nothing
    const rule = { limit, windowMs: MINUTE_MS }
    const state = await limiter.hit(key, rule, weight)
    const giveBack: GiveBack = async () => {
      await limiter.hit(key, rule, -weight)
    }
    if (!state.limited) return giveBack
    await giveBack()
    const words = fill(text, { limit, seconds: state.retryAfterS })
    throw apiError(
      429,
      words,
      { msg: words, code: ERROR_CODES.rateLimited },
      { 'Retry-After': String(state.retryAfterS) },
    )
  }

  return {
    /** One comment names at most `maxMentions` people: 400 in plain words past it. */
    checkPeople(count: number) {
      if (count <= settings.maxMentions) return
      const words = fill(COLLABORATION_TEXTS.tooManyPeople, { limit: settings.maxMentions })
      throw apiError(400, words, { msg: words, code: ERROR_CODES.validation })
    },
    /** A comment written, new or edited. */
    comment: (userId: number) =>
      take(
        `comments:${userId}`,
        settings.commentsPerMinute,
        1,
        COLLABORATION_TEXTS.tooManyComments,
      ),
    /** People newly told they are mentioned. */
    mentions: (userId: number, people: number) =>
      take(
        `mentions:${userId}`,
        settings.mentionsPerMinute,
        people,
        COLLABORATION_TEXTS.tooManyMentions,
      ),
  }
}
