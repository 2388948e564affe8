/**
 * Every call of spec section 7, in one table, so the whole API surface is visible at a glance (the
 * calls signing in makes are kept in `account-paths.ts`, for /login's bundle, and spread in here).
 * Paths are relative to API_PREFIX; the client's base is API_PREFIX and the server mounts there.
 * Builders take ids and return the concrete path. Modules that come later already have their
 * paths here; the server answers a JSON 404 for those not built yet.
 */

import { API_PREFIX, accountPaths, type Id, seg } from './account-paths.ts'

export {
  API_PREFIX,
  NO_REFRESH_ON_401,
  SSO_PROVIDERS,
  type SsoProvider,
} from './account-paths.ts'

export const paths = {
  health: '/health',
  /** The instance's terms and privacy policy (issue 30), public. */
  legal: (kind: 'terms' | 'privacy') => `/legal/${kind}/`,

  ...accountPaths,
  payouts: {
    webhook: '/payouts/webhook/',
    subscription: '/payouts/subscription/',
    /** Ours: a reference binding a checkout to the organisation, and the checkout settings. */
    checkout: '/payouts/checkout/',
    config: '/payouts/config/',
  },

  /** Repository. */
  files: {
    list: '/files/',
    get: (id: Id) => `/files/${seg(id)}/`,
    upload: '/files/upload/',
    uploadUrls: '/urls/upload/',
    batchDelete: '/files/batch-delete/',
    download: (id: Id) => `/files/${seg(id)}/download/`,
    delete: (id: Id) => `/files/${seg(id)}/delete/`,
    reprocess: (id: Id) => `/files/${seg(id)}/reprocess/`,
    updateTags: (id: Id) => `/files/${seg(id)}/update-tags/`,
    /** Issue 28: a new version of the file from one upload, and the file's versions. */
    replace: (id: Id) => `/files/${seg(id)}/replace/`,
    versions: (id: Id) => `/files/${seg(id)}/versions/`,
    versionDownload: (id: Id, version: Id) =>
      `/files/${seg(id)}/versions/${seg(version)}/download/`,
    /** Issue 30: a file's page: its statuses, versions and what cites it; what was read from it. */
    details: (id: Id) => `/files/${seg(id)}/details/`,
    passages: (id: Id) => `/files/${seg(id)}/passages/`,
  },

  /** Issue 38: the organisation's products, and which product files, answers and questionnaires speak for. */
  products: {
    list: '/products/',
    item: (id: Id) => `/products/${seg(id)}/`,
    assign: '/products/assign/',
  },

  /** Knowledge base. */
  knowledgeBase: {
    qa: '/knowledge-base/qa/',
    data: '/knowledge-base/data/',
    files: '/knowledge-base/files/',
    deleteQa: (id: Id) => `/knowledge-base/qa/${seg(id)}/delete/`,
    deleteData: (id: Id) => `/knowledge-base/data/${seg(id)}/delete/`,
    /** Ours: read (GET) and edit (PATCH) one item. */
    qaItem: (id: Id) => `/knowledge-base/qa/${seg(id)}/`,
    /** Issue 28: an owner confirms the answer is still true (reviewed today). */
    qaReviewed: (id: Id) => `/knowledge-base/qa/${seg(id)}/reviewed/`,
    dataItem: (id: Id) => `/knowledge-base/data/${seg(id)}/`,
    /** Ours: Q&A import from CSV/XLSX, a mapping preview then the import itself. */
    importPreview: '/knowledge-base/qa/import/preview/',
    import: '/knowledge-base/qa/import/',
    search: '/knowledge-base/search/',
    /** Ours: the rows of completed questionnaires in the repository, as the library reads them. */
    answered: '/knowledge-base/qa/answered/',
    /** Ours: Q&A items that ask the same question, duplicated or contradicting each other. */
    health: '/knowledge-base/qa/health/',
  },

  /** Questionnaires (under /filler/questionnaires/). */
  questionnaires: {
    list: '/filler/questionnaires/',
    upload: '/filler/questionnaires/upload/',
    batchDelete: '/filler/questionnaires/batch-delete/',
    get: (id: Id) => `/filler/questionnaires/${seg(id)}/`,
    answers: (id: Id) => `/filler/questionnaires/${seg(id)}/answers/`,
    answersByTab: (id: Id) => `/filler/questionnaires/${seg(id)}/answers/by-tab/`,
    tabs: (id: Id) => `/filler/questionnaires/${seg(id)}/tabs/`,
    download: (id: Id) => `/filler/questionnaires/${seg(id)}/download/`,
    delete: (id: Id) => `/filler/questionnaires/${seg(id)}/delete/`,
    reAnalyze: (id: Id) => `/filler/questionnaires/${seg(id)}/re-analyze/`,
    exportOriginal: '/filler/questionnaires/export-original/',
    exportBasic: '/filler/questionnaires/export-basic/',
    /** Issue 37: an export run (a job), asked for until its filled file is written. */
    exportRun: (id: Id) => `/filler/questionnaires/exports/${seg(id)}/`,
    checkFilledFile: '/filler/questionnaires/check-filled-file/',
    downloadFilledFile: '/filler/questionnaires/download-filled-file/',
    filledFileDownload: (id: Id) => `/filler/questionnaires/filled-files/${seg(id)}/download/`,
    answer: {
      regenerate: (id: Id) => `/filler/questionnaires/answers/${seg(id)}/regenerate/`,
      regenerateWithEvidence: (id: Id) =>
        `/filler/questionnaires/answers/${seg(id)}/regenerate-with-evidence/`,
      applyConsistency: (id: Id) => `/filler/questionnaires/answers/${seg(id)}/apply-consistency/`,
      edit: (id: Id) => `/filler/questionnaires/answers/${seg(id)}/edit/`,
      approve: (id: Id) => `/filler/questionnaires/answers/${seg(id)}/approve/`,
      unApprove: (id: Id) => `/filler/questionnaires/answers/${seg(id)}/un-approve/`,
      /** Ours: add the answer to the library, or update the library item for the same question. */
      saveToLibrary: (id: Id) => `/filler/questionnaires/answers/${seg(id)}/save-to-library/`,
      /** Issue 28: the changed source was checked and the answer stands. */
      confirmSource: (id: Id) => `/filler/questionnaires/answers/${seg(id)}/confirm-source/`,
    },
    selectAnswer: (questionId: Id, answerId: Id) =>
      `/filler/questionnaires/questions/${seg(questionId)}/answers/${seg(answerId)}/select/`,
    deleteQuestion: (questionId: Id) =>
      `/filler/questionnaires/questions/${seg(questionId)}/delete/`,
    sections: {
      consistency: (id: Id) => `/filler/questionnaires/${seg(id)}/sections/consistency/`,
      shorten: (id: Id) => `/filler/questionnaires/${seg(id)}/sections/shorten/`,
      examples: (id: Id) => `/filler/questionnaires/${seg(id)}/sections/examples/`,
      custom: (id: Id) => `/filler/questionnaires/${seg(id)}/sections/custom/`,
    },
    undo: (id: Id) => `/filler/questionnaires/${seg(id)}/undo/`,
    /** Issue 28: earlier questionnaires this one matches, and starting from one of them. */
    previous: (id: Id) => `/filler/questionnaires/${seg(id)}/previous/`,
    carryForward: (id: Id) => `/filler/questionnaires/${seg(id)}/carry-forward/`,
    /** Ours: start answer generation for the questions still waiting, and cancel it. */
    generate: (id: Id) => `/filler/questionnaires/${seg(id)}/generate/`,
    cancelGeneration: (id: Id) => `/filler/questionnaires/${seg(id)}/generate/cancel/`,
    operations: (id: Id) => `/filler/questionnaires/${seg(id)}/operations/`,
    /** Issue 29: the work around a questionnaire, assignments, review, comments, live, activity. */
    work: (id: Id) => `/filler/questionnaires/${seg(id)}/work/`,
    assign: (id: Id) => `/filler/questionnaires/${seg(id)}/assign/`,
    events: (id: Id) => `/filler/questionnaires/${seg(id)}/events/`,
    activity: (id: Id) => `/filler/questionnaires/${seg(id)}/activity/`,
    review: (questionId: Id) => `/filler/questionnaires/questions/${seg(questionId)}/review/`,
    comments: (questionId: Id) => `/filler/questionnaires/questions/${seg(questionId)}/comments/`,
    comment: (id: Id) => `/filler/questionnaires/comments/${seg(id)}/`,
    resolveComment: (id: Id) => `/filler/questionnaires/comments/${seg(id)}/resolve/`,
    reopenComment: (id: Id) => `/filler/questionnaires/comments/${seg(id)}/reopen/`,
    customers: '/filler/customers/',
    /** Home: the team's overdue questionnaires and its recent activity. */
    team: '/filler/team/',
    /** The organisation's active people, for every member (assignees, owners, mentions). */
    people: '/filler/people/',
    customer: (id: Id) => `/filler/customers/${seg(id)}/`,
  },

  /** Issue 29: what is mine: assignments, notifications and how I am told. */
  me: {
    assignments: '/me/assignments/',
    notificationPreferences: '/me/notification-preferences/',
  },
  notifications: {
    list: '/notifications/',
    read: '/notifications/read/',
    /** The signed-in person's stream of new notifications (server-sent events). */
    stream: '/notifications/stream/',
    /** Public: a one-click unsubscribe link's target (GET shows, POST unsubscribes). */
    unsubscribe: '/notifications/unsubscribe/',
  },

  /** Chat assistant (under /chat/). */
  chat: {
    sessions: '/chat/sessions/',
    create: '/chat/sessions/create/',
    createUnnamed: '/chat/sessions/create-unnamed/',
    session: (id: Id) => `/chat/sessions/${seg(id)}/`,
    update: (id: Id) => `/chat/sessions/${seg(id)}/update/`,
    delete: (id: Id) => `/chat/sessions/${seg(id)}/delete/`,
    export: (id: Id) => `/chat/sessions/${seg(id)}/export/`,
    messages: (id: Id) => `/chat/sessions/${seg(id)}/messages/`,
    dynamicQuestions: '/chat/dynamic-questions/',
    quota: '/chat/quota/',
  },

  /** Organisation users (under /admin/users/). */
  users: {
    list: '/admin/users/',
    invite: '/admin/users/invite/',
    approve: (id: Id) => `/admin/users/${seg(id)}/approve/`,
    reject: (id: Id) => `/admin/users/${seg(id)}/reject/`,
    remove: (id: Id) => `/admin/users/${seg(id)}/remove/`,
    update: (id: Id) => `/admin/users/${seg(id)}/update/`,
    role: (id: Id) => `/admin/users/${seg(id)}/role/`,
    sendMagicLink: (id: Id) => `/admin/users/${seg(id)}/send-magic-link/`,
    generateTemporaryPassword: (id: Id) => `/admin/users/${seg(id)}/generate-temporary-password/`,
  },

  /** Support tickets: a tasks route under the ticketing provider's segment. */
  support: {
    createTask: '/ticketing/tasks/',
  },

  /** Issue 40: the trust centre, as its admins keep it. */
  trust: {
    settings: '/trust/settings/',
    file: (id: Id) => `/files/${seg(id)}/trust/`,
    qa: (id: Id) => `/knowledge-base/qa/${seg(id)}/trust/`,
    requests: '/trust/requests/',
    request: (id: Id, action: 'approve' | 'reject' | 'revoke' | 'extend') =>
      `/trust/requests/${seg(id)}/${action}/`,
    /** The page's figures over the last `days` days. */
    analytics: '/trust/analytics/',
    /** What the library holds and whether each is on the page: files and approved Q&A items. */
    items: '/trust/items/',
  },
  /** Issue 41: the open platform, kept by admins with a person's session only. */
  platform: {
    apiKeys: '/admin/api-keys/',
    apiKeyRevoke: (id: Id) => `/admin/api-keys/${seg(id)}/revoke/`,
    webhooks: '/admin/webhooks/',
    webhook: (id: Id) => `/admin/webhooks/${seg(id)}/`,
    webhookDelete: (id: Id) => `/admin/webhooks/${seg(id)}/delete/`,
    webhookEnable: (id: Id) => `/admin/webhooks/${seg(id)}/enable/`,
    webhookDeliveries: (id: Id) => `/admin/webhooks/${seg(id)}/deliveries/`,
    webhookReplay: (id: Id, delivery: Id) =>
      `/admin/webhooks/${seg(id)}/deliveries/${seg(delivery)}/replay/`,
    /** One question answered from the organisation's knowledge (read). */
    answer: '/knowledge-base/answer/',
  },
  /** Issue 40: the trust centre as anyone reads it (no session). */
  publicTrust: {
    page: (slug: string) => `/public/trust/${seg(slug)}/`,
    download: (slug: string, id: Id) => `/public/trust/${seg(slug)}/documents/${seg(id)}/download/`,
    requests: (slug: string) => `/public/trust/${seg(slug)}/requests/`,
    session: (slug: string) => `/public/trust/${seg(slug)}/session/`,
    ask: (slug: string) => `/public/trust/${seg(slug)}/ask/`,
    /** The reader session this browser holds (its cookie), if any: who and until when. */
    reader: (slug: string) => `/public/trust/${seg(slug)}/reader/`,
    /** The organisation's logo, on a published page only. */
    logo: (slug: string) => `/public/trust/${seg(slug)}/logo/`,
  },
} as const

/** Full path with the /api/v1 prefix. */
export const apiPath = (path: string) => `${API_PREFIX}${path}`
