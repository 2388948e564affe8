import { type EventObject, fromCallback, fromPromise } from 'xstate'
import { errorText } from '../../contract/errors.ts'
import { batchDeleteResponseSchema } from '../../contract/knowledge.ts'
import { API_PREFIX } from '../../contract/paths.ts'
import { type ApiClient, ApiError, reportLimit } from './client.ts'
import { readTokens } from './tokens.ts'

/**
 * What the upload actors of the repository and the questionnaires share: a multipart POST with
 * progress, the callback actor that reports it to its machine, and the batch delete.
 */

/** The machines hand over names and sizes; the File objects travel as the same objects. */
export const asFile = (source: { name: string; size: number }) => source as unknown as File

/** POSTs a form with XMLHttpRequest so that the bytes sent can be reported. */
function sendForm(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    const { access } = readTokens()
    if (access) xhr.setRequestHeader('Authorization', `Bearer ${access}`)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      let body: unknown
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined
      } catch {
        body = undefined
      }
      resolve({ status: xhr.status, body })
    }
    xhr.onerror = () =>
      reject(new ApiError(0, undefined, 'Network error: the upload did not reach the server'))
    xhr.onabort = () => reject(new ApiError(0, undefined, 'The upload was cancelled'))
    signal.addEventListener('abort', () => xhr.abort())
    xhr.send(form)
  })
}

/** An upload with progress; a 401 refreshes the session once and sends again. */
export async function uploadWithProgress(
  client: ApiClient,
  path: string,
  form: () => FormData,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
) {
  let result = await sendForm(`${API_PREFIX}${path}`, form(), onProgress, signal)
  if (result.status === 401 && (await client.refreshTokens())) {
    result = await sendForm(`${API_PREFIX}${path}`, form(), onProgress, signal)
  }
  if (result.status < 200 || result.status >= 300) {
    throw reportLimit(
      new ApiError(
        result.status,
        result.body,
        errorText(result.body, `Upload failed (${result.status})`),
      ),
    )
  }
  return result.body
}

interface UploadActorInput {
  key: string
  source: { name: string; size: number }
  /** The product the file speaks for (issue 38); null or absent: all products. */
  productId?: number | null
  /** Form fields sent with the file (issue 39: a questionnaire's customer, due date, owner). */
  fields?: Record<string, string>
}

type UploadReport =
  | { type: 'upload.progress'; key: string; progress: number }
  | { type: 'upload.failed'; key: string; error: string }

/**
 * The callback actor of one upload: sends the source as the form field `field` to `path`,
 * reports `upload.progress`, then the event `done` makes of the answer (`upload.done`), or
 * `upload.failed` when the answer is not understood or the upload fails. Stopping it aborts.
 */
export function uploadActor<TEvent extends EventObject, TInput extends UploadActorInput>(
  client: ApiClient,
  path: string,
  field: string,
  done: (body: unknown, key: string) => TEvent | undefined,
) {
  return fromCallback<TEvent, TInput>(({ input, sendBack }) => {
    const report = (event: UploadReport) => sendBack(event as unknown as TEvent)
    const controller = new AbortController()
    uploadWithProgress(
      client,
      path,
      () => {
        const form = new FormData()
        // the product first: the server reads fields before it streams the file
        if (input.productId) form.append('product_id', String(input.productId))
        for (const [name, value] of Object.entries(input.fields ?? {}))
          if (value.trim()) form.append(name, value.trim())
        form.append(field, asFile(input.source), input.source.name)
        return form
      },
      (fraction) =>
        report({ type: 'upload.progress', key: input.key, progress: Math.round(fraction * 100) }),
      controller.signal,
    ).then(
      (body) => {
        const event = done(body, input.key)
        if (event) sendBack(event)
        else
          report({
            type: 'upload.failed',
            key: input.key,
            error: 'Unexpected response from the server',
          })
      },
      (error: unknown) =>
        report({
          type: 'upload.failed',
          key: input.key,
          error: error instanceof Error ? error.message : 'The upload failed',
        }),
    )
    return () => controller.abort()
  })
}

/** Deletes many rows in one call; resolves with how many went. */
export const batchDeleteActor = (client: ApiClient, path: string) =>
  fromPromise<number, { ids: number[] }>(async ({ input }) => {
    const body = await client.post(path, { file_ids: input.ids }, batchDeleteResponseSchema)
    return body.deleted
  })
