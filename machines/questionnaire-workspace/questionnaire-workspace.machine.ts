import { WORKSPACE_TEXTS } from '../../contract/workspace-texts.ts'
import { mappingsOf, messageOf } from './rows.ts'
import { workspaceContext, workspaceSetup } from './workspace.setup.ts'

export * from './rows.ts'
export * from './workspace.types.ts'

/**
 * The review workspace of one questionnaire ('Questionnaire Automation'): it loads the
 * questionnaire, its tabs and every question; while the file is analysed (or answered) it follows
 * the progress; then it holds the chosen tab, the filter and the focused question, runs the
 * operations that change several rows (choosing a candidate, deleting a question, undo, a section
 * operation) one at a time with the rows rolled back when the server refuses, and opens the
 * history, the mapping dialog, the custom instruction and the answer sheet. The license notice of
 * spec section 2 shows once per browser session.
 *
 * It runs its children for as long as it runs (issue 43) and talks to them: the live stream
 * (issue 29), the Export menu (told each new revision), the carry-forward offer (told once the
 * questionnaire is read), the section preview, the assign dialog and the activity. What they
 * report comes back as events; every toast is worded here and emitted for the page to show.
 */

/** The toast of a failed call: the server's reason, else the fallback. */
const fails = (fallback: string) => ({
  type: 'toastError' as const,
  params: ({ event }: { event: { error: unknown } }) => messageOf(event.error, fallback),
})

export const questionnaireWorkspaceMachine = workspaceSetup.createMachine({
  id: 'questionnaireWorkspace',
  context: ({ input }) => workspaceContext(input),
  type: 'parallel',
  on: {
    'presence.set': { actions: { type: 'setViewers', params: ({ event }) => event.viewers } },
    'live.paused': { actions: { type: 'setLivePaused', params: ({ event }) => event.paused } },
    'exports.changed': { actions: 'refreshExports' },
    'export.done': { actions: { type: 'toastExported', params: ({ event }) => event.fileName } },
    'export.failed': { actions: { type: 'toastError', params: ({ event }) => event.message } },
    'assignment.done': { actions: { type: 'toastAssigned', params: ({ event }) => event } },
    'library.saved': { actions: { type: 'toastLibrary', params: ({ event }) => event.created } },
    'assign.open': { actions: { type: 'openAssign', params: ({ event }) => event.questionId } },
    'section.preview': { actions: { type: 'previewSection', params: ({ event }) => event } },
    'comments.count': { actions: { type: 'countComments', params: ({ event }) => event } },
  },
  states: {
    children: {
      description: 'The children, running as long as the workspace (see the setup’s actors).',
      invoke: [
        { id: 'live', src: 'live', input: ({ context }) => ({ id: context.id }) },
        { id: 'exports', src: 'exports', input: ({ context }) => ({ id: context.id }) },
        { id: 'carry', src: 'carry', input: ({ context }) => ({ id: context.id }) },
        {
          id: 'sections',
          src: 'sections',
          input: ({ context }) => ({ questionnaireId: context.id }),
        },
        {
          id: 'assignment',
          src: 'assignment',
          input: ({ context }) => ({ questionnaireId: context.id }),
        },
        { id: 'activity', src: 'activity', input: ({ context }) => ({ id: context.id }) },
      ],
    },
    main: {
      description: 'The questionnaire: read, followed while a job runs, then reviewed.',
      initial: 'loading',
      on: {
        'tab.select': { actions: { type: 'selectTab', params: ({ event }) => event.tabId } },
        'filter.set': { actions: { type: 'setFilter', params: ({ event }) => event.filter } },
        focus: { actions: { type: 'focus', params: ({ event }) => event.questionId } },
        'focus.next': { actions: 'focusNext' },
        'focus.previous': { actions: 'focusPrevious' },
      },
      states: {
        loading: {
          description: 'The questionnaire, its tabs and every question are read.',
          tags: ['loading'],
          invoke: {
            src: 'loadWorkspace',
            input: ({ context }) => ({ id: context.id }),
            onDone: [
              {
                guard: { type: 'running', params: ({ event }) => event.output },
                target: 'progress',
                actions: [{ type: 'adopt', params: ({ event }) => event.output }, 'tellRevision'],
              },
              {
                target: 'ready',
                actions: [{ type: 'adopt', params: ({ event }) => event.output }, 'tellRevision'],
              },
            ],
            onError: {
              target: 'failed',
              actions: {
                type: 'failLoading',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
        failed: {
          description: 'It could not be read: the error, and a retry.',
          on: { retry: { target: 'loading', actions: 'clearError' } },
        },
        progress: {
          description: 'The file is analysed or answered: its progress is asked for every POLL.',
          initial: 'waiting',
          on: { 'generate.cancel': '.cancelling' },
          states: {
            waiting: {
              description: 'Until the next poll (QUESTIONNAIRE_PROGRESS_POLL_MS).',
              after: { POLL: 'fetching' },
            },
            cancelling: {
              description: 'The drafting is stopped; then every answer is read again.',
              invoke: {
                src: 'cancelGeneration',
                input: ({ context }) => ({ id: context.id }),
                onDone: { target: '#questionnaireWorkspace.main.loading' },
                onError: { target: 'waiting', actions: fails(WORKSPACE_TEXTS.cancelFailed) },
              },
            },
            fetching: {
              description:
                'The questionnaire is asked for; once it is no longer running, read whole.',
              invoke: {
                src: 'fetchQuestionnaire',
                input: ({ context }) => ({ id: context.id }),
                onDone: [
                  {
                    guard: { type: 'stillRunning', params: ({ event }) => event.output },
                    target: 'waiting',
                    actions: [
                      { type: 'setQuestionnaire', params: ({ event }) => event.output },
                      'tellRevision',
                    ],
                  },
                  { target: '#questionnaireWorkspace.main.loading' },
                ],
                // a failed poll is retried at the next tick
                onError: { target: 'waiting' },
              },
            },
          },
        },
        ready: {
          description: 'The questions, to review; others’ changes merged in as they come.',
          initial: 'idle',
          entry: 'offerCarry',
          on: {
            'rows.merge': {
              actions: [
                { type: 'mergeChange', params: ({ event }) => event.change },
                'tellRevision',
                'offerCarry',
              ],
            },
            'mapping.open': { actions: { type: 'openMapping', params: ({ event }) => event.tab } },
            'mapping.close': { actions: 'closeMapping' },
          },
          states: {
            idle: {
              description: 'Nothing running: an operation, a drafting or a re-analysis may start.',
              on: {
                'candidate.select': { target: 'operating', actions: 'startOperation' },
                'question.delete': { target: 'operating', actions: 'startOperation' },
                undo: { target: 'operating', actions: 'startOperation' },
                'answer.consistency': { target: 'operating', actions: 'startOperation' },
                'section.run': { target: 'operating', actions: 'startOperation' },
                generate: 'starting',
                refresh: '#questionnaireWorkspace.main.loading',
                'carry.done': '#questionnaireWorkspace.main.loading',
                'mapping.submit': { target: 'reanalyzing', actions: 'clearMappingError' },
                reanalyze: 'reanalyzing',
              },
            },
            operating: {
              description:
                'One operation runs; its rows changed at once and are rolled back if the server refuses.',
              tags: ['busy'],
              invoke: {
                src: 'runOperation',
                input: ({ context }) => ({
                  id: context.id,
                  operation: context.operation ?? { kind: 'undo' },
                }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'finishOperation', params: ({ event }) => event.output },
                    { type: 'toastOperation', params: ({ event }) => event.output },
                    'tellRevision',
                    'refreshHistory',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: ['rollBack', fails(WORKSPACE_TEXTS.changeFailed)],
                },
              },
            },
            starting: {
              description: 'The drafting of every open answer is asked for.',
              tags: ['busy'],
              invoke: {
                src: 'startGeneration',
                input: ({ context }) => ({ id: context.id }),
                onDone: {
                  target: '#questionnaireWorkspace.main.progress',
                  actions: [
                    { type: 'setQuestionnaire', params: ({ event }) => event.output },
                    'tellRevision',
                  ],
                },
                onError: { target: 'idle', actions: fails(WORKSPACE_TEXTS.generateFailed) },
              },
            },
            reanalyzing: {
              description: 'The file is read again, with a tab’s confirmed mapping if one was set.',
              tags: ['busy'],
              invoke: {
                src: 'reanalyze',
                input: ({ context, event }) => ({ id: context.id, mappings: mappingsOf(event) }),
                onDone: {
                  target: '#questionnaireWorkspace.main.progress',
                  actions: [
                    { type: 'reanalysed', params: ({ event }) => event.output },
                    'tellRevision',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    {
                      type: 'failMapping',
                      params: ({ event }) =>
                        messageOf(event.error, WORKSPACE_TEXTS.reanalyzeFailed),
                    },
                    fails(WORKSPACE_TEXTS.reanalyzeFailed),
                  ],
                },
              },
            },
          },
        },
      },
    },
    history: {
      description: 'The history drawer: the operations, each undoable, and the activity.',
      initial: 'closed',
      states: {
        closed: {
          description: 'The history drawer is closed.',
          on: { 'history.open': { target: 'loading', actions: 'loadActivity' } },
        },
        loading: {
          description: 'The operations are read (again after each of the workspace’s own).',
          invoke: {
            src: 'loadHistory',
            input: ({ context }) => ({ id: context.id }),
            onDone: {
              target: 'open',
              actions: { type: 'setHistory', params: ({ event }) => event.output },
            },
            onError: {
              target: 'open',
              actions: {
                type: 'failHistory',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
        open: {
          description: 'The operations, each undoable in turn, beside the activity.',
          on: { 'history.close': 'closed', 'history.refresh': 'loading' },
        },
      },
    },
    files: {
      description: 'The repository’s files offered as evidence to regenerate from.',
      initial: 'idle',
      states: {
        idle: {
          description: 'The repository’s files are read when evidence is first wanted.',
          on: { 'files.load': 'loading' },
        },
        loading: {
          description: 'The ready repository files are read, to answer from.',
          invoke: {
            src: 'loadEvidenceFiles',
            onDone: {
              target: 'loaded',
              actions: { type: 'setEvidenceFiles', params: ({ event }) => event.output },
            },
            onError: 'idle',
          },
        },
        loaded: {
          description: 'The files are offered; read again on the next wish.',
          on: { 'files.load': 'loading' },
        },
      },
    },
    notice: {
      description: 'The license notice of spec section 2, once per browser session.',
      initial: 'checking',
      states: {
        checking: {
          description: 'Whether the license limits answers and the notice was not yet shown.',
          invoke: {
            src: 'licenseNotice',
            onDone: [
              {
                guard: { type: 'hasNotice', params: ({ event }) => event.output },
                target: 'open',
                actions: [
                  { type: 'setMaxAnswers', params: ({ event }) => event.output },
                  'noticeShown',
                ],
              },
              { target: 'closed' },
            ],
            onError: 'closed',
          },
        },
        open: {
          description: 'Spec section 2’s license dialog, until closed.',
          on: { 'notice.close': 'closed' },
        },
        closed: { description: 'Shown, or not needed.', type: 'final' },
      },
    },
    sheet: {
      description: 'On a narrow screen, the focused answer’s sheet.',
      initial: 'closed',
      on: {
        'question.open': {
          target: '.open',
          actions: { type: 'focus', params: ({ event }) => event.questionId },
        },
      },
      states: {
        closed: {
          description: 'On a narrow screen, the focused answer’s sheet is closed.',
          on: { 'sheet.open': 'open' },
        },
        open: {
          description:
            'On a narrow screen, the focused answer shows in a sheet (when one is focused).',
          on: { 'sheet.close': 'closed' },
        },
      },
    },
    custom: {
      description: 'The custom instruction for a section operation.',
      initial: 'closed',
      states: {
        closed: {
          description: 'The custom instruction dialog is closed.',
          on: { 'custom.open': 'open' },
        },
        open: {
          description: 'An instruction for the chosen tab is written; submitted, it is previewed.',
          on: {
            'custom.close': 'closed',
            'custom.submit': {
              target: 'closed',
              actions: { type: 'previewCustom', params: ({ event }) => event.instruction },
            },
          },
        },
      },
    },
    deleting: {
      description: 'Deleting a question asks first.',
      initial: 'idle',
      states: {
        idle: {
          description: 'No deletion is being asked about.',
          on: {
            'delete.ask': {
              target: 'asking',
              actions: { type: 'askDelete', params: ({ event }) => event.questionId },
            },
          },
        },
        asking: {
          description: 'Delete this question? Confirmed, it is deleted (and can be undone).',
          on: {
            'delete.confirm': { target: 'idle', actions: ['deleteAsked', 'forgetDelete'] },
            'delete.cancel': { target: 'idle', actions: 'forgetDelete' },
          },
        },
      },
    },
  },
})
